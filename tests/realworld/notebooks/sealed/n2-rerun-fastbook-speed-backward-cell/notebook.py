# source: https://github.com/fastai/fastbook/blob/master/04_mnist_basics.ipynb
# scenario: rerun
# cause: double_backward
# root: cell 5 line 1
# order: 0 1 2 3 4 5 6 6
# expert: the `loss.backward()` cell was run twice on the loss computed once in the cell above; recompute preds and loss in the cell that calls backward (as apply_step does)
# %%
import torch
torch.manual_seed(42)
time = torch.arange(0,20).float(); time
# %%
speed = torch.randn(20)*3 + 0.75*(time-9.5)**2 + 1
# %%
def f(t, params):
    a,b,c = params
    return a*(t**2) + (b*t) + c

def mse(preds, targets): return ((preds-targets)**2).mean()
# %%
params = torch.randn(3).requires_grad_()
orig_params = params.clone()
# %%
preds = f(time, params)
# %%
loss = mse(preds, speed)
loss
# %%
loss.backward()
params.grad
# %%
lr = 1e-5
params.data -= lr * params.grad.data
params.grad = None
