# source: https://github.com/lululxvi/deepxde/issues/2074 (fix proposed in https://github.com/lululxvi/deepxde/pull/2094; npfunc_range_autocache / IC of deepxde/icbc as in the repository, cut down to a mini Model/PDE/FNN on a fixed set of collocation points, with the trainable constant C moved into the IC as in https://github.com/lululxvi/deepxde/pull/2077)
# style: physics
# cause: tensor_reused_across_iterations
# line: 47
# expert: On the pytorch backend npfunc_range_autocache caches func(X[beg:end]) keyed only on (id(X), beg, end); the IC function closes over the trainable dde.Variable C, so the first evaluation (with its sin(C*x) graph) is stored in the cache and returned again at every later step, whose backward then runs through the graph freed by the first one (and C would never get a fresh gradient anyway). The fix proposed for the issue is to stop caching 1-argument IC/BC functions on pytorch: return wrapper_nocache so func is re-evaluated every iteration.
import inspect
from functools import wraps

import numpy as np
import torch

torch.manual_seed(0)
np.random.seed(0)

backend_name = "pytorch"


def get_num_args(func):
    return len(inspect.signature(func).parameters)


def return_tensor(func):
    """Convert the output to a Tensor."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        return torch.as_tensor(func(*args, **kwargs))

    return wrapper


def npfunc_range_autocache(func):
    """Call a NumPy function on a range of the input ndarray.

    If the backend is pytorch, the results are cached based on the id of X.
    """
    cache = {}

    @wraps(func)
    def wrapper_nocache(X, beg, end, _):
        return func(X[beg:end])

    @wraps(func)
    def wrapper_cache(X, beg, end, _):
        key = (id(X), beg, end)
        if key not in cache:
            cache[key] = func(X[beg:end])
        return cache[key]

    @wraps(func)
    def wrapper_nocache_auxiliary(X, beg, end, aux_var):
        return func(X[beg:end], aux_var[beg:end])

    if backend_name in ["tensorflow.compat.v1", "tensorflow", "jax"]:
        if get_num_args(func) == 1:
            return wrapper_nocache
        if get_num_args(func) == 2:
            return wrapper_nocache_auxiliary
    if backend_name in ["pytorch", "paddle"]:
        if get_num_args(func) == 1:
            return wrapper_cache
        if get_num_args(func) == 2:
            return wrapper_nocache_auxiliary


class IC:
    """Initial conditions: y([x, t0]) = func([x, t0])."""

    def __init__(self, func, on_initial, component=0):
        self.func = npfunc_range_autocache(return_tensor(func))
        self.on_initial = on_initial
        self.component = component

    def filter(self, X):
        return X[np.array([self.on_initial(x) for x in X])]

    def collocation_points(self, X):
        return self.filter(X)

    def error(self, X, inputs, outputs, beg, end, aux_var=None):
        values = self.func(X, beg, end, aux_var)
        return outputs[beg:end, self.component : self.component + 1] - values


class TimePDE:
    """Residual points in the domain followed by the IC points, fixed for the whole run."""

    def __init__(self, pde, ic, num_domain, num_initial):
        self.pde = pde
        self.ic = ic
        x = np.random.uniform(-1, 1, (num_domain, 1))
        t = np.random.uniform(0, 1, (num_domain, 1))
        domain = np.hstack([x, t]).astype(np.float32)
        x0 = np.random.uniform(-1, 1, (num_initial, 1))
        initial = np.hstack([x0, np.zeros_like(x0)]).astype(np.float32)
        self.num_domain = num_domain
        self.train_x = np.vstack([domain, ic.collocation_points(initial)])

    def losses(self, inputs, outputs):
        f = self.pde(inputs, outputs)[: self.num_domain]
        beg, end = self.num_domain, len(self.train_x)
        error = self.ic.error(self.train_x, inputs, outputs, beg, end)
        return [torch.mean(f ** 2), torch.mean(error ** 2)]


class FNN(torch.nn.Module):
    def __init__(self, layer_sizes):
        super().__init__()
        self.linears = torch.nn.ModuleList(
            [torch.nn.Linear(a, b) for a, b in zip(layer_sizes[:-1], layer_sizes[1:])]
        )

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = torch.tanh(linear(x))
        return self.linears[-1](x)


class Model:
    def __init__(self, data, net):
        self.data = data
        self.net = net

    def compile(self, lr, external_trainable_variables):
        params = list(self.net.parameters()) + external_trainable_variables
        self.opt = torch.optim.Adam(params, lr=lr)

    def train(self, iterations):
        for it in range(iterations):
            inputs = torch.as_tensor(self.data.train_x)
            inputs.requires_grad_()
            outputs = self.net(inputs)
            losses = self.data.losses(inputs, outputs)
            total_loss = torch.sum(torch.stack(losses))
            self.opt.zero_grad()
            total_loss.backward()
            self.opt.step()
            print(it, [round(l.item(), 5) for l in losses], "C =", round(C.item(), 4))


C = torch.tensor(2.0, requires_grad=True)


def pde(x, y):
    dy = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]
    dy_x, dy_t = dy[:, 0:1], dy[:, 1:2]
    dy_xx = torch.autograd.grad(dy_x, x, torch.ones_like(dy_x), create_graph=True)[0][:, 0:1]
    return dy_t - dy_xx + torch.exp(-x[:, 1:2]) * (
        torch.sin(np.pi * x[:, 0:1]) - np.pi ** 2 * torch.sin(np.pi * x[:, 0:1])
    )


def ic_func(x):
    x = torch.as_tensor(x)
    return torch.sin(C * x[:, 0:1]) * torch.exp(-x[:, 1:2])


ic = IC(ic_func, lambda x: np.isclose(x[1], 0))
data = TimePDE(pde, ic, num_domain=40, num_initial=10)
net = FNN([2, 16, 16, 1])
model = Model(data, net)
model.compile(lr=1e-3, external_trainable_variables=[C])
model.train(iterations=3)
