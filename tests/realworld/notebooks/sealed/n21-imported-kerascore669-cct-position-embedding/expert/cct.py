"""Compact Convolutional Transformer (cut-down port of examples/keras_io/tensorflow/vision/cct.py)."""
import torch
import torch.nn as nn

projection_dim = 16
num_heads = 2
transformer_layers = 2


class CCTTokenizer(nn.Module):
    def __init__(self, kernel_size=3, num_output_channels=(8, projection_dim)):
        super().__init__()
        self.conv_model = nn.Sequential(
            nn.Conv2d(3, num_output_channels[0], kernel_size, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(num_output_channels[0], num_output_channels[1], kernel_size, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )

    def forward(self, images):
        outputs = self.conv_model(images)
        return outputs.flatten(2).transpose(1, 2)


class PositionEmbedding(nn.Module):
    def __init__(self, sequence_length, output_dim):
        super().__init__()
        self.position_embeddings = nn.Embedding(sequence_length, output_dim)

    def forward(self, inputs):
        positions = torch.arange(start=0, end=inputs.size(1), step=1)
        return inputs + self.position_embeddings(positions)


class CCT(nn.Module):
    def __init__(self, image_size=16, num_classes=4, positional_emb=True):
        super().__init__()
        self.cct_tokenizer = CCTTokenizer()
        self.position_embeddings = None
        if positional_emb:
            sequence_length = (image_size // 4) ** 2
            self.position_embeddings = PositionEmbedding(sequence_length, projection_dim)
        layer = nn.TransformerEncoderLayer(projection_dim, num_heads, 2 * projection_dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, transformer_layers)
        self.attention_pool = nn.Linear(projection_dim, 1)
        self.head = nn.Linear(projection_dim, num_classes)

    def forward(self, images):
        encoded_patches = self.cct_tokenizer(images)
        if self.position_embeddings is not None:
            encoded_patches = self.position_embeddings(encoded_patches)
        representation = self.encoder(encoded_patches)
        attention_weights = torch.softmax(self.attention_pool(representation), dim=1)
        weighted_representation = (attention_weights * representation).sum(dim=1)
        return self.head(weighted_representation)


def create_cct_model(image_size=16, num_classes=4, positional_emb=True):
    return CCT(image_size, num_classes, positional_emb)
