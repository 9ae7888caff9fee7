# source: https://github.com/rtqichen/torchdiffeq/issues/154 (the reporter's ODEFunc whose forward differentiates self.my_func(x) with torch.autograd.grad, trained through odeint_adjoint in the loop the issue sketches, completed with get_batch, the spiral data and loss of torchdiffeq's examples/ode_demo.py; torchdiffeq is replaced by a minimal fixed-step RK4 odeint and the OdeintAdjointMethod of torchdiffeq/_impl/adjoint.py, whose forward integrates under torch.no_grad(); [0] added to take the gradient out of the tuple autograd.grad returns)
# style: physics
# cause: no_grad_fn
# line: 123
# expert: odeint_adjoint evaluates the ODE function in its forward pass under torch.no_grad() (the adjoint method recomputes what it needs on the backward pass), so inside ODEFunc.forward y = self.my_func(x) is built without a graph and torch.autograd.grad(y, x, ...) fails with "element 0 of tensors does not require grad and does not have a grad_fn"; plain odeint works. The maintainer's answer: wrap the computation in an explicit torch.enable_grad() block and use x = x.clone().requires_grad_(True) before computing y and its gradient.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


# ---- minimal stand-in for torchdiffeq (not installed): fixed-step RK4 odeint and the
# ---- OdeintAdjointMethod of torchdiffeq/_impl/adjoint.py (no events, no time gradients)
def _rk4_step(func, t0, dt, y0):
    if isinstance(y0, tuple):
        add = lambda a, b, s: tuple(ai + s * bi for ai, bi in zip(a, b))
    else:
        add = lambda a, b, s: a + s * b
    k1 = func(t0, y0)
    k2 = func(t0 + dt / 2, add(y0, k1, dt / 2))
    k3 = func(t0 + dt / 2, add(y0, k2, dt / 2))
    k4 = func(t0 + dt, add(y0, k3, dt))
    if isinstance(y0, tuple):
        return tuple(y + dt / 6 * (a + 2 * b + 2 * c + d) for y, a, b, c, d in zip(y0, k1, k2, k3, k4))
    return y0 + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def odeint(func, y0, t, method='rk4'):
    ys, y = [y0], y0
    for i in range(len(t) - 1):
        y = _rk4_step(func, t[i], t[i + 1] - t[i], y)
        ys.append(y)
    if isinstance(y0, tuple):
        return tuple(torch.stack([y_[k] for y_ in ys]) for k in range(len(y0)))
    return torch.stack(ys)


class OdeintAdjointMethod(torch.autograd.Function):

    @staticmethod
    def forward(ctx, func, y0, t, *adjoint_params):
        ctx.func = func
        with torch.no_grad():
            y = odeint(func, y0, t)
            ctx.save_for_backward(t, y, *adjoint_params)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        with torch.no_grad():
            func = ctx.func
            t, y, *adjoint_params = ctx.saved_tensors
            adjoint_params = tuple(adjoint_params)
            aug_state = [y[-1], grad_y[-1]] + [torch.zeros_like(p) for p in adjoint_params]

            def augmented_dynamics(t, y_aug):
                y, adj_y = y_aug[0], y_aug[1]
                with torch.enable_grad():
                    y = y.detach().requires_grad_(True)
                    func_eval = func(t, y)
                    vjp_y, *vjp_params = torch.autograd.grad(
                        func_eval, (y,) + adjoint_params, -adj_y,
                        allow_unused=True, retain_graph=True
                    )
                vjp_y = torch.zeros_like(y) if vjp_y is None else vjp_y
                vjp_params = [torch.zeros_like(p) if v is None else v for p, v in zip(adjoint_params, vjp_params)]
                return (func_eval, vjp_y, *vjp_params)

            for i in range(len(t) - 1, 0, -1):
                aug_state = odeint(augmented_dynamics, tuple(aug_state), t[i - 1:i + 1].flip(0))
                aug_state = [a[1] for a in aug_state]
                aug_state[0] = y[i - 1]
                aug_state[1] += grad_y[i - 1]
            return (None, aug_state[1], None, *aug_state[2:])


def odeint_adjoint(func, y0, t, method='rk4'):
    assert isinstance(func, nn.Module), 'func must be an instance of nn.Module to specify the adjoint parameters'
    adjoint_params = tuple(p for p in func.parameters() if p.requires_grad)
    return OdeintAdjointMethod.apply(func, y0, t, *adjoint_params)


# ---- ode_demo.py data (spiral), smaller ----
torch.manual_seed(0)
np.random.seed(0)
device = torch.device('cpu')
data_size, batch_time, batch_size, niters = 200, 10, 16, 5

true_y0 = torch.tensor([[2., 0.]]).to(device)
t = torch.linspace(0., 5., data_size).to(device)
true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]]).to(device)


class Lambda(nn.Module):

    def forward(self, t, y):
        return torch.mm(y**3, true_A)


with torch.no_grad():
    true_y = odeint(Lambda(), true_y0, t)


def get_batch():
    s = torch.from_numpy(np.random.choice(np.arange(data_size - batch_time, dtype=np.int64), batch_size, replace=False))
    batch_y0 = true_y[s]  # (M, D)
    batch_t = t[:batch_time]  # (T)
    batch_y = torch.stack([true_y[s + i] for i in range(batch_time)], dim=0)  # (T, M, D)
    return batch_y0.to(device), batch_t.to(device), batch_y.to(device)


# ---- the reporter's ODE function: its dynamics are the gradient of a network output ----
class ODEFunc(nn.Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.net = nn.Sequential(nn.Linear(2, 50), nn.Tanh(), nn.Linear(50, 2))

    def my_func(self, x):
        y = self.net(x)
        return y

    def forward(self, t, x):
        y = self.my_func(x)
        dy = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
        return dy


func = ODEFunc().to(device)
optimizer = optim.RMSprop(func.parameters(), lr=1e-3)

for itr in range(niters):
    optimizer.zero_grad()
    batch_x0, batch_t, batch_y = get_batch()
    pred_y = odeint_adjoint(func, batch_x0, batch_t).to(device)
    loss = torch.mean(torch.abs(pred_y - batch_y))
    loss.backward()
    optimizer.step()
    print('Iter {:04d} | Loss {:.6f}'.format(itr, loss.item()))
