# source: https://github.com/keras-team/keras-core/pull/663
# scenario: earlier_function
# cause: computed_before_loop
# root: cell 1 line 5
# expert: compute the position embedding inside the model's forward with a PositionEmbedding layer (the PR's re-implementation), instead of embedding the positions once when build_classifier builds the model
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
num_classes, image_size, patch_size = 4, 8, 2
num_patches = (image_size // patch_size) ** 2
embedding_dim = 16
x_train = torch.randn(32, 3, image_size, image_size)
y_train = torch.randint(0, num_classes, (32,))

class Patches(nn.Module):
    def forward(self, images):
        p = images.unfold(2, patch_size, patch_size).unfold(3, patch_size, patch_size)
        return p.permute(0, 2, 3, 1, 4, 5).reshape(images.size(0), num_patches, -1)

class FNetLayer(nn.Module):
    def __init__(self, embedding_dim):
        super().__init__()
        self.ffn = nn.Sequential(nn.Linear(embedding_dim, embedding_dim), nn.GELU(), nn.Linear(embedding_dim, embedding_dim))
        self.normalize1, self.normalize2 = nn.LayerNorm(embedding_dim), nn.LayerNorm(embedding_dim)

    def forward(self, inputs):
        x = torch.fft.fft2(inputs.to(torch.complex64)).real
        x = self.normalize1(x + inputs)
        return self.normalize2(x + self.ffn(x))

class Classifier(nn.Module):
    def __init__(self, blocks, position_embedding):
        super().__init__()
        self.patches, self.dense = Patches(), nn.Linear(3 * patch_size * patch_size, embedding_dim)
        self.blocks, self.logits = blocks, nn.Linear(embedding_dim, num_classes)
        self.position_embedding = position_embedding

    def forward(self, inputs):
        x = self.dense(self.patches(inputs))
        if self.position_embedding is not None:
            x = x + self.position_embedding
        return self.logits(self.blocks(x).mean(dim=1))
# %%
def build_classifier(blocks, positional_encoding=False):
    position_embedding = None
    if positional_encoding:
        positions = torch.arange(start=0, end=num_patches, step=1)
        position_embedding = nn.Embedding(num_embeddings=num_patches, embedding_dim=embedding_dim)(positions)
    return Classifier(blocks, position_embedding)
# %%
fnet_blocks = nn.Sequential(*[FNetLayer(embedding_dim) for _ in range(2)])
fnet_classifier = build_classifier(fnet_blocks, positional_encoding=True)
optimizer = torch.optim.Adam(fnet_classifier.parameters(), lr=0.005)
# %%
def run_experiment(model, num_epochs=2, batch_size=16):
    for epoch in range(num_epochs):
        for i in range(0, len(x_train), batch_size):
            loss = nn.functional.cross_entropy(model(x_train[i:i + batch_size]), y_train[i:i + batch_size])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())

run_experiment(fnet_classifier)
