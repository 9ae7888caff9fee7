# source: https://github.com/lucidrains/rotary-embedding-torch/issues/18
# scenario: imported_module
# cause: tensor_reused_across_iterations
# root: file rotary.py line 93
# expert: RotaryEmbedding.forward caches the frequency table it computes on the first call (tmp_store('cached_freqs', freqs)) with its graph attached, because self.freqs requires grad here, so the second training step reads the cached freqs and its loss.backward() walks into the first step's freed graph; the maintainer's fix (0.5.3) stores and returns the cache detached (freqs.detach())
# %%
import torch
import torch.nn as nn
from rotary import RotaryEmbedding
torch.manual_seed(0)
# %%
class Attention(nn.Module):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.rotary_emb = RotaryEmbedding(dim=dim // heads)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        q = self.rotary_emb.rotate_queries_or_keys(q)
        k = self.rotary_emb.rotate_queries_or_keys(k)
        attn = (q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


model = nn.Sequential(nn.Linear(4, 16), Attention(16), nn.Linear(16, 1))
# %%
# fine-tune everything
for p in model.parameters():
    p.requires_grad = True
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
# %%
x = torch.randn(8, 4, 6, 4)
y = torch.randn(8, 4, 6, 1)
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x[step]), y[step])
    loss.backward()
    optimizer.step()
    print(step, loss.item())
