# expert fix of earlier-loss-built-before-loop
# %%
import torch
torch.manual_seed(0)
x = torch.nn.Linear(3, 3)
a = torch.randn(2, 3)
# %%
a.shape
# %%
for i in range(100):
    y = torch.sum(x(a))
    y.backward()
