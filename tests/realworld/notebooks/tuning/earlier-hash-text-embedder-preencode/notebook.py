# source: https://github.com/pyg-team/pytorch-frame/pull/229
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 0 line 15
# expert: the text embedder is only a pre-encoding step, but its nn.Embedding output keeps a graph, so the features encoded once before training make the second iteration backpropagate into a freed graph; return self.embedding(idx).detach() from the embedder
# %%
import zlib
import torch
import torch.nn as nn
torch.manual_seed(0)

class HashTextEmbedder:
    """Maps each sentence to a vector through a hashed embedding table (not part of the model)."""
    def __init__(self, out_channels, num_hash_bins=64):
        self.out_channels = out_channels
        self.num_hash_bins = num_hash_bins
        self.embedding = nn.Embedding(num_hash_bins, out_channels)

    def __call__(self, sentences):
        idx = torch.tensor([zlib.crc32(s.encode()) % self.num_hash_bins for s in sentences])
        return self.embedding(idx)
# %%
sentences = [f"review {i}: the product is {'good' if i % 3 else 'bad'}" for i in range(32)]
target = torch.tensor([1.0 if i % 3 else 0.0 for i in range(32)])
text_embedder = HashTextEmbedder(out_channels=8)
# materialize: pre-encode the text column once
x_text = text_embedder(sentences)
# %%
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.BCEWithLogitsLoss()
# %%
for epoch in range(5):
    optimizer.zero_grad()
    loss = loss_fn(model(x_text).squeeze(-1), target)
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
