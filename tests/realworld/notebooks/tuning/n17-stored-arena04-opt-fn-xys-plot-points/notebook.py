# source: https://github.com/callummcdougall/ARENA_2.0/blob/main/chapter0_fundamentals/instructions/pages/04_%5B0.4%5D_Optimization.py (the opt_fn_with_sgd exercise and its 'Help - I'm getting Can't call numpy() on Tensor that requires grad' note; the exercise cells of part4_optimization/solutions.py filled in the way the note describes, _stub_arena_utils.py standing in for the course's plotly-based utils.plot_fn_with_points)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: cell 1 line 18
# expert: opt_fn_with_sgd records the trajectory with xys[i] = xy, copying the leaf xy (requires_grad=True) into xys through autograd, so the returned xys requires grad and the plotting cell fails when plotly converts the points with numpy; as the course note says, detach first: record the points with xys[i] = xy.detach(), as the solution does.
# %%
import torch as t
from torch import optim
from typing import Callable
from _stub_arena_utils import plot_fn, plot_fn_with_points
t.manual_seed(0)

def pathological_curve_loss(x: t.Tensor, y: t.Tensor):
    # Example of a pathological curvature. There are many more possible, feel free to experiment here!
    x_loss = t.tanh(x) ** 2 + 0.01 * t.abs(x)
    y_loss = t.sigmoid(y)
    return x_loss + y_loss

plot_fn(pathological_curve_loss)
# %%
def opt_fn_with_sgd(fn: Callable, xy: t.Tensor, lr=0.001, momentum=0.98, n_iters: int = 100):
    '''
    Optimize the a given function starting from the specified point.

    xy: shape (2,). The (x, y) starting point.
    n_iters: number of steps.
    lr, momentum: parameters passed to the torch.optim.SGD optimizer.

    Return: (n_iters, 2). The (x,y) BEFORE each step. So out[0] is the starting point.
    '''
    assert xy.requires_grad

    xys = t.zeros((n_iters, 2))

    optimizer = optim.SGD([xy], lr=lr, momentum=momentum)

    for i in range(n_iters):
        xys[i] = xy
        out = fn(xy[0], xy[1])
        out.backward()
        optimizer.step()
        optimizer.zero_grad()

    return xys
# %%
points = []

optimizer_list = [
    (optim.SGD, {"lr": 0.1, "momentum": 0.0}),
    (optim.SGD, {"lr": 0.02, "momentum": 0.99}),
]

for optimizer_class, params in optimizer_list:
    xy = t.tensor([2.5, 2.5], requires_grad=True)
    xys = opt_fn_with_sgd(pathological_curve_loss, xy=xy, lr=params['lr'], momentum=params['momentum'])
    points.append((xys, optimizer_class, params))
# %%
plot_fn_with_points(pathological_curve_loss, points=points)
