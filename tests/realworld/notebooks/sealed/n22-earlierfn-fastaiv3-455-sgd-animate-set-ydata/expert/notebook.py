# source: https://github.com/fastai/course-v3/issues/455
# %%
import numpy as np
import torch
from torch import nn
import _stub_pyplot as plt
from _stub_animation import FuncAnimation
torch.manual_seed(0)

def tensor(*args): return torch.tensor(args)  # fastai's tensor(3.,2)

n = 100
x = torch.ones(n, 2)
x[:, 0].uniform_(-1., 1)
a = tensor(3., 2)
y = x@a + torch.rand(n)

def mse(y_hat, y): return ((y_hat-y)**2).mean()
# %%
a = tensor(-1., 1)
a = nn.Parameter(a); a

def update():
    y_hat = x@a
    loss = mse(y, y_hat)
    if t % 10 == 0: print(loss)
    loss.backward()
    with torch.no_grad():
        a.sub_(lr * a.grad)
        a.grad.zero_()

lr = 1e-1
for t in range(100): update()
# %%
a = nn.Parameter(tensor(-1., 1))
fig = plt.figure()
plt.scatter(x[:, 0], y, c='orange')
with torch.no_grad():
    line, = plt.plot(x[:, 0], x@a)
plt.close()
# %%
def animate(i):
    update()
    with torch.no_grad():
        line.set_ydata(x@a)
    return line,
# %%
anim = FuncAnimation(fig, animate, np.arange(0, 100), interval=20)
print(a)
