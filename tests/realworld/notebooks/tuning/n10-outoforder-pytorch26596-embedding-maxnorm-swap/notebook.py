# source: variant of https://github.com/pytorch/pytorch/issues/26596
# scenario: out_of_order
# cause: inplace_modified_saved_tensor
# root: cell 2 line 1
# order: 0 2 1 3
# expert: embedding has max_norm, so every embedding(idx) call renormalises embedding.weight in place; run after the cell that computed a = embedding.weight @ W.t() (which saved the weight for backward), the lookup bumps the weight's version and loss.backward() fails (the issue notes that swapping the two lines avoids it). The fix settled in the thread (the note added to nn.Embedding's docs in PR #45595) is to use a clone of the weight for the differentiable op: a = embedding.weight.clone() @ W.t()
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

n, d, m = 3, 5, 7
batch_size = 11

embedding = nn.Embedding(n, d, max_norm=True)
W = torch.randn((m, d), requires_grad=True)
optimizer = torch.optim.Adam(list(embedding.parameters()) + [W], lr=1e-3)

optimizer.zero_grad()
idx = torch.tensor([1, 2])
# %%
b = embedding(idx) @ W.t()    # Line b
# %%
a = embedding.weight @ W.t()  # Line a
# %%
out = (a.unsqueeze(0) + b.unsqueeze(1))
loss = out.sigmoid().prod()
loss.backward()
optimizer.step()
print(loss.item())
