# source: variant of https://github.com/fastai/course-v3/pull/521
# scenario: earlier_cell
# cause: numpy_on_grad_tensor
# root: cell 8 line 2
# expert: a was turned into an nn.Parameter in an earlier cell, so after training x@a still requires grad and the plotting cell hands it to matplotlib, which converts it with numpy(); the merged fix detaches the prediction before plotting: plt.scatter(x[:,0], x@a.detach())
# %%
import numpy as np
import torch
from torch import nn
torch.manual_seed(42)

class _Pyplot:
    """stand-in for matplotlib.pyplot (not installed here): scatter converts its inputs with np.asarray, as matplotlib does"""
    def scatter(self, x, y, **kwargs):
        return np.asarray(x), np.asarray(y)
plt = _Pyplot()

n=100
x = torch.ones(n,2)
x[:,0].uniform_(-1.,1)
x[:5]
# %%
a = torch.tensor([3.,2]); a
y = x@a + torch.rand(n)
# %%
plt.scatter(x[:,0], y);
# %%
def mse(y_hat, y): return ((y_hat-y)**2).mean()
a = torch.tensor([-1.,1])
y_hat = x@a
mse(y_hat, y)
# %%
plt.scatter(x[:,0],y)
plt.scatter(x[:,0],y_hat);
# %%
a = nn.Parameter(a); a
# %%
def update():
    y_hat = x@a
    loss = mse(y, y_hat)
    if t % 10 == 0: print(loss)
    loss.backward()
    with torch.no_grad():
        a.sub_(lr * a.grad)
        a.grad.zero_()
# %%
lr = 1e-1
for t in range(100): update()
# %%
plt.scatter(x[:,0],y)
plt.scatter(x[:,0],x@a);
