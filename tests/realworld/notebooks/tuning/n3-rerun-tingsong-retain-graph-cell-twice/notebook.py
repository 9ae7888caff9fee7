# source: variant of https://github.com/TingsongYu/PyTorch-Tutorial-2nd/issues/33
# scenario: rerun
# cause: double_backward
# root: cell 1 line 3
# order: 0 1 2 3 3
# expert: the retain_graph=True demo cell keeps the graph only for the next backward; the last cell calls y.backward() without retain_graph, which frees it, so running that cell again fails; rebuild y (re-run the forward cell, or compute a, b, y in the same cell) before every backward that is meant to start a fresh pass
# %%
import torch
torch.manual_seed(10)
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
# %%
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
# %%
y.backward(retain_graph=True)
print(w.grad)
# %%
y.backward()
print(w.grad)
