# source: variant of https://github.com/lhycms/Deep_Learning_Notes/blob/73dc843a322e88938d6a1dfcdccc8d4d6cd348a7/1.Basic/%E4%B9%8B%E5%89%8D/04_BackPropagation.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 2 line 4
# order: 0 1 2 3 3
# expert: the forward pass (y_hat, loss) lives in its own cell, so running the backward cell a second time without re-running the forward cell calls loss.backward() on a graph the first run already freed (the notebook's own markdown asks "Why can't call .backward() method again?"); re-run the forward pass before every backward, i.e. build y_hat and loss in the cell that calls backward
# %%
import torch
# %%
x = torch.tensor(1.)
y = torch.tensor(2.)
w = torch.tensor(1., requires_grad=True)
# %%
# forward pass
# 因为 w.requires_grad=True, 所以一旦利用w开始计算，PyTorch就会自动建立computation graph
y_hat = w * x
loss = (y_hat - y) ** 2
print(loss)
# %%
# backward pass
loss.backward()
w.grad
