# source: https://github.com/keras-team/keras-core/pull/727
# scenario: earlier_function
# cause: computed_before_loop
# root: cell 1 line 5
# expert: re-implement the position encoder as a layer that embeds the positions inside every forward call (the PR's PositionEmbedding), instead of the position_embedding helper encoding them once while the classifier is built
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
NUM_CLASSES, IMAGE_SIZE, PATCH_SIZE = 4, 8, 2
NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2
PROJECTION_DIM = 16
NUM_TOKENS = 4
x_train = torch.randn(32, 3, IMAGE_SIZE, IMAGE_SIZE)
y_train = torch.randint(0, NUM_CLASSES, (32,))
# %%
class PositionEmbedding(nn.Module):
    def __init__(self, sequence_length=NUM_PATCHES, output_dim=PROJECTION_DIM):
        super().__init__()
        self.position_embeddings = nn.Embedding(sequence_length, output_dim)

    def forward(self, inputs):
        # Build the positions and encode them on every call.
        positions = torch.arange(start=0, end=inputs.size(1), step=1)
        return inputs + self.position_embeddings(positions)
# %%
class TokenLearner(nn.Module):
    def __init__(self, dim, number_of_tokens=NUM_TOKENS):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attention_maps = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, number_of_tokens))

    def forward(self, inputs):
        x = self.norm(inputs)
        attention = torch.softmax(self.attention_maps(x), dim=1)  # (B, N, T)
        return torch.einsum("bnt,bnd->btd", attention, inputs)

class ViTClassifier(nn.Module):
    def __init__(self, use_token_learner=True):
        super().__init__()
        self.projection = nn.Conv2d(3, PROJECTION_DIM, PATCH_SIZE, stride=PATCH_SIZE)
        # Add positional embeddings to the projected patches.
        self.position_embedding = PositionEmbedding()
        layer = nn.TransformerEncoderLayer(PROJECTION_DIM, 2, 2 * PROJECTION_DIM, dropout=0.0, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, 2)
        self.token_learner = TokenLearner(PROJECTION_DIM) if use_token_learner else nn.Identity()
        self.head = nn.Linear(PROJECTION_DIM, NUM_CLASSES)

    def forward(self, images):
        projected_patches = self.projection(images).flatten(2).transpose(1, 2)
        encoded_patches = self.position_embedding(projected_patches)
        encoded_patches = self.token_learner(self.transformer(encoded_patches))
        return self.head(encoded_patches.mean(dim=1))

vit_token_learner = ViTClassifier()
optimizer = torch.optim.AdamW(vit_token_learner.parameters(), lr=1e-3, weight_decay=1e-4)
# %%
for epoch in range(2):
    for i in range(0, len(x_train), 16):
        loss = nn.functional.cross_entropy(vit_token_learner(x_train[i:i + 16]), y_train[i:i + 16])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
