# source: https://github.com/norse/norse/issues/130
# style: rnn
# cause: recurrent_state_not_detached
# line: 57
# expert: per the maintainers, the cell is right to keep the state differentiable; the user must detach the state carried into the next backward pass himself (s = s.detach() / state tuple detached) before reusing it
from typing import NamedTuple

import torch

torch.manual_seed(0)


class LIFState(NamedTuple):
    z: torch.Tensor
    v: torch.Tensor
    i: torch.Tensor


class SuperSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=100.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (ctx.alpha * x.abs() + 1.0) ** 2, None


class LIFCell(torch.nn.Module):
    def __init__(self, input_size, hidden_size, dt=0.001, tau_syn_inv=200.0, tau_mem_inv=100.0, v_th=1.0):
        super().__init__()
        self.input_weights = torch.nn.Parameter(torch.randn(hidden_size, input_size) / input_size ** 0.5)
        self.recurrent_weights = torch.nn.Parameter(torch.randn(hidden_size, hidden_size) / hidden_size ** 0.5)
        self.hidden_size = hidden_size
        self.dt, self.tau_syn_inv, self.tau_mem_inv, self.v_th = dt, tau_syn_inv, tau_mem_inv, v_th

    def forward(self, input_tensor, state=None):
        if state is None:
            zeros = torch.zeros(input_tensor.shape[0], self.hidden_size)
            state = LIFState(z=zeros, v=zeros, i=zeros)
        dv = self.dt * self.tau_mem_inv * ((0.0 - state.v) + state.i)
        v_decayed = state.v + dv
        di = -self.dt * self.tau_syn_inv * state.i
        i_decayed = state.i + di
        z_new = SuperSpike.apply(v_decayed - self.v_th)
        v_new = (1 - z_new) * v_decayed
        i_new = i_decayed + torch.nn.functional.linear(input_tensor, self.input_weights) \
            + torch.nn.functional.linear(state.z, self.recurrent_weights)
        return z_new, LIFState(z_new, v_new, i_new)


model = LIFCell(12, 1)
data = torch.ones(100, 12)
out, s = model(data)
loss = (out + s.i).sum()
loss.backward()
out, s = model(data, s)
loss = (out + s.i).sum()
loss.backward()
print(model.input_weights.grad.abs().sum().item())
