# source: https://github.com/fangwei123456/spikingjelly/issues/301
# style: spiking
# cause: recurrent_state_not_detached
# line: 40
# expert: reset the network state (functional.reset_net(net)) and the STDP learners after every training iteration before repeating the tutorial step
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (1 + (math.pi * x) ** 2)


class IFNode(nn.Module):
    """Multi-step integrate-and-fire neuron (step_mode='m')."""

    def __init__(self, v_threshold=1.0):
        super().__init__()
        self.v_threshold = v_threshold
        self.v = 0.0

    def reset(self):
        self.v = 0.0

    def forward(self, x_seq):
        out = []
        for t in range(x_seq.shape[0]):
            self.v = self.v + x_seq[t]
            spike = ATan.apply(self.v - self.v_threshold)
            self.v = self.v * (1.0 - spike)
            out.append(spike)
        return torch.stack(out)


class SeqWrap(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x_seq):
        y = self.m(x_seq.flatten(0, 1))
        return y.view(x_seq.shape[0], x_seq.shape[1], *y.shape[1:])


class STDPLearner:
    """Trace-based STDP for a conv synapse; records pre/post spikes with forward hooks."""

    def __init__(self, synapse, sn, tau_pre=2.0, tau_post=2.0):
        self.synapse, self.tau_pre, self.tau_post = synapse, tau_pre, tau_post
        self.in_spikes, self.out_spikes = [], []
        synapse.register_forward_hook(lambda m, i, o: self.in_spikes.append(i[0].detach()))
        sn.register_forward_hook(lambda m, i, o: self.out_spikes.append(o.detach()))
        self.trace_pre = None
        self.trace_post = None

    def reset(self):
        self.in_spikes.clear()
        self.out_spikes.clear()
        self.trace_pre = None
        self.trace_post = None

    def step(self, on_grad=True):
        conv = self.synapse.m
        delta_w = torch.zeros_like(conv.weight)
        for x_in, s_out in zip(self.in_spikes, self.out_spikes):
            x_in = x_in.view(-1, *x_in.shape[-3:])
            s_out = s_out.view(-1, *s_out.shape[-3:])
            tp = x_in if self.trace_pre is None else self.trace_pre - self.trace_pre / self.tau_pre + x_in
            tq = s_out if self.trace_post is None else self.trace_post - self.trace_post / self.tau_post + s_out
            self.trace_pre, self.trace_post = tp, tq
            cols = F.unfold(tp, conv.kernel_size, padding=conv.padding)
            delta_w += torch.einsum("nol,nkl->ok", s_out.flatten(2), cols).view_as(conv.weight) / cols.shape[0]
        self.in_spikes.clear()
        self.out_spikes.clear()
        if on_grad:
            conv.weight.grad = -delta_w if conv.weight.grad is None else conv.weight.grad - delta_w


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()


T, N, C, H, W = 4, 2, 1, 12, 12
net = nn.Sequential(
    SeqWrap(nn.Conv2d(C, 4, kernel_size=3, padding=1, bias=False)),
    IFNode(),
    SeqWrap(nn.MaxPool2d(2, 2)),
    SeqWrap(nn.Flatten()),
    SeqWrap(nn.Linear(4 * 6 * 6, 10, bias=False)),
    IFNode(),
)
nn.init.constant_(net[0].m.weight, 0.4)

stdp_learners = [STDPLearner(net[0], net[1])]
params_stdp = list(net[0].parameters())
params_stdp_set = set(params_stdp)
params_gradient_descent = [p for p in net.parameters() if p not in params_stdp_set]
optimizer_gd = torch.optim.Adam(params_gradient_descent, lr=0.01)
optimizer_stdp = torch.optim.SGD(params_stdp, lr=0.01, momentum=0.0)

for iteration in range(3):
    x_seq = (torch.rand([T, N, C, H, W]) > 0.5).float()
    target = torch.randint(low=0, high=10, size=[N])

    optimizer_gd.zero_grad()
    optimizer_stdp.zero_grad()

    y = net(x_seq).mean(0)
    loss = F.cross_entropy(y, target)
    loss.backward()

    optimizer_stdp.zero_grad()

    for i in range(stdp_learners.__len__()):
        stdp_learners[i].step(on_grad=True)

    optimizer_gd.step()
    optimizer_stdp.step()
    functional.reset_net(net)
    for i in range(stdp_learners.__len__()):
        stdp_learners[i].reset()
    print(f"iteration {iteration} loss {loss.item():.4f}")
