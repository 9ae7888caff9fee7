# source: https://github.com/TingsongYu/PyTorch-Tutorial-2nd/issues/33
# scenario: rerun
# cause: double_backward
# root: cell 1 line 3
# order: 0 1 2 2
# expert: the backward cell was run a second time on the graph of y built once in the forward cell (saved tensors are freed by the first backward); rebuild the graph before each backward by putting the forward computation in the same cell as y.backward() (retain_graph=True only if two backwards on one graph are really wanted)
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
y.backward()
print(w.grad)
