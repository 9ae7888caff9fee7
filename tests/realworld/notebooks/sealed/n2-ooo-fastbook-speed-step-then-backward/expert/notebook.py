# expert fix of n2-ooo-fastbook-speed-step-then-backward
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
preds = f(time, params)
loss = mse(preds, speed)
loss.backward()
params.grad
# %%
lr = 1e-5
params.data -= lr * params.grad.data
params.grad = None
