# cause: inplace_modified_saved_tensor
# line: 23
# why: masked_fill_ overwrites the softmax output in place, but softmax saved that output for its backward.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinySelfAttention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.d = d
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, pad_mask):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d)
        attn = scores.softmax(dim=-1)
        attn.masked_fill_(pad_mask[:, None, :], 0.0)
        attn = attn / attn.sum(dim=-1, keepdim=True)
        return self.proj(attn @ v)


attn_layer = TinySelfAttention()
clf = nn.Linear(8, 2)
opt = torch.optim.Adam(list(attn_layer.parameters()) + list(clf.parameters()), lr=1e-3)
x = torch.randn(4, 5, 8)
lengths = torch.tensor([5, 3, 4, 2])
pad_mask = torch.arange(5)[None, :] >= lengths[:, None]
labels = torch.tensor([0, 1, 1, 0])
for step in range(2):
    h = attn_layer(x, pad_mask)
    keep = (~pad_mask).unsqueeze(-1).float()
    pooled = (h * keep).sum(1) / keep.sum(1)
    loss = F.cross_entropy(clf(pooled), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
