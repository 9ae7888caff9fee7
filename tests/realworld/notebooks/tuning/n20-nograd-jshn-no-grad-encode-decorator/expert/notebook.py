# source: variant of https://jshn9515.github.io/deep-learning-notes/en/ch2-pytorch-introduction/ch2.2-autograd-contexts.html (the note's point that no_grad used for feature extraction or "just to run a model once to inspect the output" cuts the graph; here an encode helper decorated with @torch.no_grad() for inspecting embeddings in a setup cell is later reused by a contrastive fine-tuning cell; small MLP encoder, random data, noise views)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 1
# expert: encode was written for inspection and decorated with @torch.no_grad(), so when the fine-tuning cell computes both views' embeddings through it the contrastive loss has no graph at all; call the encoder directly in the training cell (z = F.normalize(encoder(x), dim=1)) and keep the no_grad helper for inspection only.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
data = torch.randn(32, 16)
# %%
@torch.no_grad()
def encode(x):
    return F.normalize(encoder(x), dim=1)

z = encode(data)
print(z.shape, (z @ z.T).diagonal().mean().item())
# %%
def info_nce(z1, z2, temperature=0.5):
    logits = z1 @ z2.T / temperature
    targets = torch.arange(z1.shape[0])
    return F.cross_entropy(logits, targets)

optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
for step in range(5):
    x1 = data + 0.1 * torch.randn_like(data)
    x2 = data + 0.1 * torch.randn_like(data)
    loss = info_nce(F.normalize(encoder(x1), dim=1), F.normalize(encoder(x2), dim=1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
