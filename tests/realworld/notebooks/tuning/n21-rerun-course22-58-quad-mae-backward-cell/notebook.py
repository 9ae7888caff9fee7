# source: variant of https://github.com/fastai/course22/issues/58
# scenario: rerun
# cause: no_grad_fn
# root: cell 3 line 3
# order: 0 1 2 3 2
# expert: recompute the loss with gradient tracking before calling backward again (loss = quad_mae(abc); loss.backward(), as the notebook's later loop cell does each step); the loss printed inside torch.no_grad() has no grad_fn
# %%
import numpy as np
import torch
from functools import partial

def f(x): return 3*x**2 + 2*x + 1
def quad(a, b, c, x): return a*x**2 + b*x + c
def mk_quad(a, b, c): return partial(quad, a, b, c)
def noise(x, scale): return np.random.normal(scale=scale, size=x.shape)
def add_noise(x, mult, add): return x * (1+noise(x, mult)) + noise(x, add)

np.random.seed(42)
x = torch.linspace(-2, 2, steps=20)[:, None]
y = add_noise(f(x), 0.15, 1.5)

def mae(preds, acts): return (torch.abs(preds-acts)).mean()
def quad_mae(params):
    f = mk_quad(*params)
    return mae(f(x), y)
# %%
abc = torch.tensor([1.1, 1.1, 1.1])
abc.requires_grad_()
loss = quad_mae(abc)
loss
# %%
loss.backward()
abc.grad
# %%
with torch.no_grad():
    abc -= abc.grad*0.01
    loss = quad_mae(abc)
print(f'loss={loss:.2f}')
