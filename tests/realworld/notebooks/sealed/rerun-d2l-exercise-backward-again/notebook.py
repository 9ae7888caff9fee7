# source: https://github.com/web-logs2/ReadNote/blob/master/%E5%8A%A8%E6%89%8B%E5%AD%A6%E6%B7%B1%E5%BA%A6%E5%AD%A6%E4%B9%A0/%E7%AC%AC2%E7%AB%A0%20%E9%A2%84%E5%A4%87%E7%9F%A5%E8%AF%86.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 1 line 2
# order: 0 1 2
# expert: the d2l exercise runs the backward pass again right after the first one; the first call must keep the graph: y.backward(retain_graph=True) (the second call then adds the same gradient again)
# %%
import torch
torch.manual_seed(0)
x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
# %%
y = torch.dot(x, x)
y.backward()
print(x.grad)
# %%
y.backward()
print(x.grad)
