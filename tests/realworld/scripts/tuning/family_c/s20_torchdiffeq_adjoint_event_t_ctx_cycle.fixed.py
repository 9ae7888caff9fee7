# source: https://github.com/rtqichen/torchdiffeq/issues/180 (the reporter's MWE calling odeint_event with odeint_interface=odeint_adjoint in a loop, on CPU; torchdiffeq is replaced by a minimal fixed-step RK4 solver with an integrate-until-event/bisection stand-in, and OdeintAdjointMethod / odeint_adjoint / odeint_event follow torchdiffeq/_impl/adjoint.py and odeint.py before the fix ca85e83; the event function returns mean(y) - 0.01 instead of a boolean, and the number of live tensors stands in for torch.cuda.memory_allocated)
# style: custom_function
# cause: graph_kept_alive
# line: 81
# expert: In event mode OdeintAdjointMethod.forward stores the event time as a plain attribute, ctx.event_t = event_t, but event_t is also one of the Function's outputs: the output's grad_fn holds ctx and ctx holds the output, a reference cycle through the autograd graph, so every odeint_event call leaves its graph node, its saved tensors and the solution alive and memory grows with every call (on current PyTorch only until Python's cyclic garbage collector happens to run) ('1536 3072 / 3072 4608 / ...'). As diagnosed in the thread (the leak is caused by that line of the forward pass), the maintainer's fix ca85e83 ('Fixed #180 memory leak') saves event_t with ctx.save_for_backward(t, y, event_t, *adjoint_params) and reads it back from ctx.saved_tensors in backward.
import gc

import torch
import torch.nn as nn

torch.manual_seed(0)
device = 'cpu'


# ---- minimal stand-in for torchdiffeq (not installed): fixed-step RK4, integrate-until-event,
# ---- OdeintAdjointMethod of torchdiffeq/_impl/adjoint.py and odeint_event of _impl/odeint.py ----
def _rk4_step(func, t0, dt, y0):
    if isinstance(y0, tuple):
        add = lambda a, b, s: tuple(ai + s * bi for ai, bi in zip(a, b))
        comb = lambda y, k1, k2, k3, k4: tuple(yy + dt / 6 * (a + 2 * b + 2 * c + d) for yy, a, b, c, d in zip(y, k1, k2, k3, k4))
    else:
        add = lambda a, b, s: a + s * b
        comb = lambda y, k1, k2, k3, k4: y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    k1 = func(t0, y0)
    k2 = func(t0 + dt / 2, add(y0, k1, dt / 2))
    k3 = func(t0 + dt / 2, add(y0, k2, dt / 2))
    k4 = func(t0 + dt, add(y0, k3, dt))
    return comb(y0, k1, k2, k3, k4)


def _integrate(func, y0, t0, t1, n=20):
    dt = (t1 - t0) / n
    y = y0
    for i in range(n):
        y = _rk4_step(func, t0 + i * dt, dt, y)
    return y


def odeint(func, y0, t, event_fn=None, dt=0.05):
    if event_fn is None:
        ys = [y0]
        for i in range(len(t) - 1):
            ys.append(_integrate(func, ys[-1], t[i], t[i + 1]))
        return torch.stack(ys)
    # integrate until event_fn changes sign, then bisect for the event time
    t_prev, y_prev = t[0], y0
    sign0 = torch.sign(event_fn(t_prev, y_prev))
    while True:
        t_next, y_next = t_prev + dt, _rk4_step(func, t_prev, dt, y_prev)
        if torch.sign(event_fn(t_next, y_next)) != sign0:
            break
        t_prev, y_prev = t_next, y_next
    lo, hi = torch.zeros(()), torch.as_tensor(dt)
    for _ in range(30):
        mid = (lo + hi) / 2
        y_mid = _integrate(func, y_prev, t_prev, t_prev + mid, n=4)
        if torch.sign(event_fn(t_prev + mid, y_mid)) == sign0:
            lo = mid
        else:
            hi = mid
    event_t = (t_prev + hi).reshape(-1)[0]
    y_event = _integrate(func, y_prev, t_prev, event_t, n=4)
    return event_t, torch.stack([y0, y_event])


class OdeintAdjointMethod(torch.autograd.Function):

    @staticmethod
    def forward(ctx, func, y0, t, event_fn, *adjoint_params):

        ctx.func = func
        ctx.event_mode = event_fn is not None

        with torch.no_grad():
            ans = odeint(func, y0, t, event_fn=event_fn)

            if event_fn is None:
                y = ans
                ctx.save_for_backward(t, y, *adjoint_params)
            else:
                event_t, y = ans
                ctx.save_for_backward(t, y, event_t, *adjoint_params)

        return ans

    @staticmethod
    def backward(ctx, *grad_y):
        with torch.no_grad():
            func = ctx.func

            # Backprop as if integrating up to event time.
            # Does NOT backpropagate through the event time.
            event_mode = ctx.event_mode
            if event_mode:
                t, y, event_t, *adjoint_params = ctx.saved_tensors
                t = torch.cat([t[0].reshape(-1), event_t.reshape(-1)])
                grad_y = grad_y[1]
            else:
                t, y, *adjoint_params = ctx.saved_tensors
                grad_y = grad_y[0]

            adjoint_params = tuple(adjoint_params)
            aug_state = [y[-1], grad_y[-1]] + [torch.zeros_like(p) for p in adjoint_params]

            def augmented_dynamics(t, y_aug):
                y, adj_y = y_aug[0], y_aug[1]
                with torch.enable_grad():
                    y = y.detach().requires_grad_(True)
                    func_eval = func(t, y)
                    vjp_y, *vjp_params = torch.autograd.grad(
                        func_eval, (y,) + adjoint_params, -adj_y, allow_unused=True, retain_graph=True)
                vjp_y = torch.zeros_like(y) if vjp_y is None else vjp_y
                vjp_params = [torch.zeros_like(p) if v is None else v for p, v in zip(adjoint_params, vjp_params)]
                return (func_eval, vjp_y, *vjp_params)

            for i in range(len(t) - 1, 0, -1):
                aug_state = list(_integrate(augmented_dynamics, tuple(aug_state), t[i], t[i - 1]))
                aug_state[0] = y[i - 1]
                aug_state[1] += grad_y[i - 1]
            return (None, aug_state[1], None, None, *aug_state[2:])


def odeint_adjoint(func, y0, t, *, event_fn=None):
    assert isinstance(func, nn.Module)
    adjoint_params = tuple(p for p in func.parameters() if p.requires_grad)
    ans = OdeintAdjointMethod.apply(func, y0, t, event_fn, *adjoint_params)
    if event_fn is None:
        solution = ans
    else:
        event_t, solution = ans
        event_t = event_t.to(t)
        return event_t, solution
    return solution


def odeint_event(func, y0, t0, *, event_fn, odeint_interface=odeint):
    t = torch.cat([t0.reshape(-1), t0.reshape(-1).detach() + 1.0])
    event_t, solution = odeint_interface(func, y0, t, event_fn=event_fn)
    return event_t, solution


# ---- the reporter's MWE (CPU; the number of live tensors stands in for torch.cuda.memory_allocated) ----
class F(torch.nn.Module):
  def __init__(self):
    super().__init__()
    self.r = torch.nn.Parameter(torch.ones(1, device=device))

  def forward(self, t, y):
    return -self.r*y

def e(t, y):
  return torch.mean(y) - 0.01

def live_tensors():
  # tensors still referenced (including unreachable cycles the cyclic GC has not collected yet)
  return sum(1 for o in gc.get_objects() if type(o) in (torch.Tensor, torch.nn.Parameter))

def test(leak=False, m = 4, T = 8):
  f = F()
  y_init = torch.ones(m, device=device)
  t_init = torch.zeros(1, device=device)
  interface = odeint_adjoint if leak else odeint
  for t in torch.arange(T):
    print(live_tensors(), end=" ")
    odeint_event(f, y_init, t_init, event_fn=e, odeint_interface=interface)
    print(live_tensors())

print("odeint:")
test(leak=False)

print("odeint_adjoint:")
test(leak=True)
