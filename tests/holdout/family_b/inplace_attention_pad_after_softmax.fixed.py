import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinySelfAttention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.d = d

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / self.d ** 0.5
        attn = scores.masked_fill(pad_mask[:, None, :], float("-inf")).softmax(dim=-1)
        return self.proj(attn @ v)


model = TinySelfAttention()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(2, 5, 8)
pad_mask = torch.tensor([[False, False, False, True, True], [False, False, False, False, True]])
target = torch.randn(2, 5, 8)
for step in range(2):
    loss = F.mse_loss(model(x, pad_mask), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
