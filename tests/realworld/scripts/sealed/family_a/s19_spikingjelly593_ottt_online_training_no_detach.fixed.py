# source: https://github.com/fangwei123456/spikingjelly/issues/593
# style: spiking
# cause: recurrent_state_not_detached
# line: 97
# expert: ottt_online_training calls loss.backward() (and optimizer.step()) at every time step, but the last layer is a plain LIFNode whose membrane potential self.v is carried from one time step to the next still attached to the previous step's graph, which that step's backward already freed. The reporter's fix, merged in PR #754, is to call functional.detach_net(model) inside ottt_online_training after each step's backward/update, so each time step only backpropagates through its own graph.
import types
from typing import Callable

import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


# ---- minimal stand-in for the parts of spikingjelly.activation_based used here ----
class _SigmoidSurrogate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        sg = torch.sigmoid(ctx.alpha * x)
        return grad_output * (1. - sg) * sg * ctx.alpha, None


class Sigmoid(nn.Module):
    def __init__(self, alpha=4.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return _SigmoidSurrogate.apply(x, self.alpha)


surrogate = types.SimpleNamespace(Sigmoid=Sigmoid)


class MemoryModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._memories = {}
        self._memories_rv = {}

    def register_memory(self, name, value):
        self._memories[name] = value
        self._memories_rv[name] = value

    def __getattr__(self, name):
        if '_memories' in self.__dict__ and name in self.__dict__['_memories']:
            return self.__dict__['_memories'][name]
        return super().__getattr__(name)

    def __setattr__(self, name, value):
        if '_memories' in self.__dict__ and name in self.__dict__['_memories']:
            self.__dict__['_memories'][name] = value
        else:
            super().__setattr__(name, value)

    def reset(self):
        for key in self._memories.keys():
            self._memories[key] = self._memories_rv[key]

    def detach(self):
        for key in self._memories.keys():
            if isinstance(self._memories[key], torch.Tensor):
                self._memories[key].detach_()


class LIFNode(MemoryModule):
    def __init__(self, tau: float = 2., decay_input: bool = True, v_threshold: float = 1.,
                 v_reset: float = 0., surrogate_function: Callable = surrogate.Sigmoid(),
                 detach_reset: bool = False, step_mode='s', backend='torch', store_v_seq: bool = False):
        super().__init__()
        self.register_memory('v', v_reset if v_reset is not None else 0.)
        self.tau = tau
        self.decay_input = decay_input
        self.v_threshold = v_threshold
        self.v_reset = v_reset
        self.surrogate_function = surrogate_function
        self.detach_reset = detach_reset
        self.step_mode = step_mode
        self.backend = backend

    def v_float_to_tensor(self, x: torch.Tensor):
        if isinstance(self.v, float):
            v_init = self.v
            self.v = torch.full_like(x.data, v_init)

    def neuronal_charge(self, x: torch.Tensor):
        if self.decay_input:
            if self.v_reset is None or self.v_reset == 0.:
                self.v = self.v + (x - self.v) / self.tau
            else:
                self.v = self.v + (x - (self.v - self.v_reset)) / self.tau
        else:
            if self.v_reset is None or self.v_reset == 0.:
                self.v = self.v * (1. - 1. / self.tau) + x
            else:
                self.v = self.v - (self.v - self.v_reset) / self.tau + x

    def neuronal_fire(self):
        return self.surrogate_function(self.v - self.v_threshold)

    def neuronal_reset(self, spike):
        spike_d = spike.detach() if self.detach_reset else spike
        if self.v_reset is None:
            self.v = self.v - spike_d * self.v_threshold
        else:
            self.v = (1. - spike_d) * self.v + spike_d * self.v_reset

    def single_step_forward(self, x: torch.Tensor):
        self.v_float_to_tensor(x)
        self.neuronal_charge(x)
        spike = self.neuronal_fire()
        self.neuronal_reset(spike)
        return spike

    def forward(self, x):
        return self.single_step_forward(x)


class OTTTLIFNode(LIFNode):
    def __init__(self, tau: float = 2., decay_input: bool = False, v_threshold: float = 1.,
                 v_reset: float = None, surrogate_function: Callable = surrogate.Sigmoid(),
                 detach_reset: bool = True, step_mode='s', backend='torch', store_v_seq: bool = False):
        super().__init__(tau, decay_input, v_threshold, v_reset, surrogate_function, detach_reset,
                         step_mode, backend, store_v_seq)
        self._memories.pop('v')
        self._memories_rv.pop('v')

    def reset(self):
        super().reset()
        if hasattr(self, 'v'):
            del self.v
        if hasattr(self, 'trace'):
            del self.trace

    def neuronal_charge(self, x: torch.Tensor):
        self.v = self.v.detach()
        super().neuronal_charge(x)

    @staticmethod
    def track_trace(spike, trace, tau: float):
        with torch.no_grad():
            trace = trace * (1. - 1. / tau) + spike
        return trace

    def single_step_forward(self, x: torch.Tensor):
        if not hasattr(self, 'v'):
            self.register_buffer('v', torch.zeros_like(x))
        if not hasattr(self, 'trace'):
            self.register_buffer('trace', torch.zeros_like(x))
        self.neuronal_charge(x)
        spike = self.neuronal_fire()
        self.neuronal_reset(spike)
        self.trace = self.track_trace(spike, self.trace, self.tau)
        return [spike, self.trace]


neuron = types.SimpleNamespace(LIFNode=LIFNode, OTTTLIFNode=OTTTLIFNode)


class ReplaceforGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, x_r):
        return x_r

    @staticmethod
    def backward(ctx, grad):
        return (grad, grad)


class GradwithTrace(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        # x: [spike, trace], defined in OTTTLIFNode in neuron.py
        spike, trace = x[0], x[1]
        with torch.no_grad():
            out = self.module(spike).detach()
        in_for_grad = ReplaceforGrad.apply(spike, trace)
        out_for_grad = self.module(in_for_grad)
        x = ReplaceforGrad.apply(out_for_grad, out)
        return x


class SpikeTraceOp(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        spike, trace = x[0], x[1]
        spike = self.module(spike)
        with torch.no_grad():
            trace = self.module(trace)
        return [spike, trace]


class OTTTSequential(nn.Sequential):
    def __init__(self, *args):
        super().__init__(*args)

    def forward(self, input):
        for module in self:
            if not isinstance(input, list):
                input = module(input)
            else:
                if len(list(module.parameters())) > 0:  # e.g., Conv2d, Linear, etc.
                    module = GradwithTrace(module)
                else:  # e.g., Dropout, AvgPool, etc.
                    module = SpikeTraceOp(module)
                input = module(input)
        return input


layer = types.SimpleNamespace(OTTTSequential=OTTTSequential)


def reset_net(net: nn.Module):
    for m in net.modules():
        if hasattr(m, 'reset'):
            m.reset()


def detach_net(net: nn.Module):
    for m in net.modules():
        if hasattr(m, 'detach'):
            m.detach()


def ottt_online_training(model: nn.Module, optimizer: torch.optim.Optimizer, x_seq: torch.Tensor,
                         target_seq: torch.Tensor, f_loss_t: Callable, online: bool) -> None:
    # input x_seq/target_seq: [B, T, ...]
    # transpose to [T, B, ...]
    x_seq = x_seq.transpose(0, 1)
    target_seq = target_seq.transpose(0, 1)
    T = x_seq.shape[0]

    batch_loss = 0.
    y_all = []
    if not online:
        optimizer.zero_grad()
    for t in range(T):
        if online:
            optimizer.zero_grad()

        y_t = model(x_seq[t])
        loss = f_loss_t(y_t, target_seq[t].contiguous())

        loss.backward()

        # update params
        if online:
            optimizer.step()

        # detach neuron states so the next time step does not backpropagate into this one (PR #754)
        detach_net(model)

        batch_loss += loss.data
        y_all.append(y_t.detach())

    if not online:
        optimizer.step()

    # y_all: [B, T, ...]
    y_all = torch.stack(y_all, dim=1)

    return batch_loss, y_all


functional = types.SimpleNamespace(reset_net=reset_net, detach_net=detach_net,
                                   ottt_online_training=ottt_online_training)
# ---- end of stand-in ----

net = layer.OTTTSequential(
    nn.Linear(8, 4),
    neuron.OTTTLIFNode(),
    nn.Linear(4, 2),
    neuron.LIFNode()
)

optimizer = torch.optim.SGD(net.parameters(), lr=0.1)

T = 4
N = 2
online = True
for epoch in range(2):

    x_seq = torch.rand([N, T, 8])
    target_seq = torch.rand([N, T, 2])

    functional.ottt_online_training(model=net, optimizer=optimizer, x_seq=x_seq, target_seq=target_seq, f_loss_t=F.mse_loss, online=online)
    functional.reset_net(net)
