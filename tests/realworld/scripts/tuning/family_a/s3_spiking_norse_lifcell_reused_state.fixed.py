# source: https://github.com/norse/norse/issues/130
# style: spiking
# cause: recurrent_state_not_detached
# line: 62
# expert: detach the neuron state returned by the first pass before feeding it into the next pass (s = detach(s)), as the maintainers say the user must do when a state outlives its backward; retain_graph=True is only a workaround
from typing import NamedTuple

import torch

torch.manual_seed(0)


class LIFState(NamedTuple):
    z: torch.Tensor
    v: torch.Tensor
    i: torch.Tensor


class SuperSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_tensor, alpha=100.0):
        ctx.save_for_backward(input_tensor)
        ctx.alpha = alpha
        return (input_tensor > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (inp,) = ctx.saved_tensors
        return grad_output / (ctx.alpha * inp.abs() + 1.0).pow(2), None


class LIFCell(torch.nn.Module):
    """Plain-torch version of norse.torch.LIFCell(input_size, hidden_size)."""

    def __init__(self, input_size, hidden_size, dt=0.001, tau_syn_inv=200.0, tau_mem_inv=100.0, v_th=1.0):
        super().__init__()
        self.input_weights = torch.nn.Parameter(torch.randn(hidden_size, input_size) * (2 / hidden_size) ** 0.5)
        self.recurrent_weights = torch.nn.Parameter(torch.randn(hidden_size, hidden_size) * (2 / hidden_size) ** 0.5)
        self.hidden_size = hidden_size
        self.dt, self.tau_syn_inv, self.tau_mem_inv, self.v_th = dt, tau_syn_inv, tau_mem_inv, v_th

    def forward(self, input_tensor, state=None):
        if state is None:
            zeros = torch.zeros(input_tensor.shape[0], self.hidden_size)
            state = LIFState(z=zeros, v=zeros.clone(), i=zeros.clone())
        i_jump = state.i + torch.nn.functional.linear(input_tensor, self.input_weights) \
            + torch.nn.functional.linear(state.z, self.recurrent_weights)
        dv = self.dt * self.tau_mem_inv * ((0.0 - state.v) + i_jump)
        v_decayed = state.v + dv
        di = -self.dt * self.tau_syn_inv * i_jump
        i_new = i_jump + di
        z_new = SuperSpike.apply(v_decayed - self.v_th)
        v_new = (1 - z_new) * v_decayed
        return z_new + 0.1 * v_new, LIFState(z_new, v_new, i_new)


model = LIFCell(12, 1)
data = torch.ones(100, 12)
out, s = model(data)
loss = out.sum()
loss.backward()
s = LIFState(*(t.detach() for t in s))
out, _ = model(data, s)
loss = out.sum()
loss.backward()
print("second backward ok", model.input_weights.grad.abs().sum().item())
