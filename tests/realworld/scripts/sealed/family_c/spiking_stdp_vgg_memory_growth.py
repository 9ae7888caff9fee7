# source: https://github.com/fangwei123456/spikingjelly/issues/346
# style: spiking
# cause: graph_kept_alive
# line: 80
# expert: reset the STDP learners (learner.reset()) every iteration together with functional.reset_net(net), so the recorded spikes and traces do not keep earlier graphs alive
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
    """Trace-based STDP; the monitors record the spikes exactly as the network produced them."""

    def __init__(self, synapse, sn, tau_pre=2.0, tau_post=2.0):
        self.synapse, self.tau_pre, self.tau_post = synapse, tau_pre, tau_post
        self.in_spikes, self.out_spikes = [], []
        synapse.register_forward_hook(lambda m, i, o: self.in_spikes.append(i[0]))
        sn.register_forward_hook(lambda m, i, o: self.out_spikes.append(o))
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
            x_in = x_in.reshape(-1, *x_in.shape[-3:])
            s_out = s_out.reshape(-1, *s_out.shape[-3:])
            tp = x_in if self.trace_pre is None else self.trace_pre - self.trace_pre / self.tau_pre + x_in
            tq = s_out if self.trace_post is None else self.trace_post - self.trace_post / self.tau_post + s_out
            self.trace_pre, self.trace_post = tp, tq
            cols = F.unfold(tp, conv.kernel_size, padding=conv.padding)
            delta_w = delta_w + torch.einsum("nol,nkl->ok", tq.flatten(2), cols).view_as(conv.weight) / cols.shape[0]
        self.in_spikes.clear()
        self.out_spikes.clear()
        if on_grad:
            conv.weight.grad = -delta_w if conv.weight.grad is None else conv.weight.grad - delta_w


def graph_size(t):
    seen, stack = set(), [t.grad_fn] if t is not None and t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()


class Vgg(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            SeqWrap(nn.Conv2d(2, 8, kernel_size=3, padding=1, bias=False)),
            IFNode(),
            SeqWrap(nn.MaxPool2d(2, 2)),
            SeqWrap(nn.Conv2d(8, 8, kernel_size=3, padding=1, bias=False)),
            IFNode(),
            SeqWrap(nn.MaxPool2d(2, 2)),
            SeqWrap(nn.Flatten()),
            SeqWrap(nn.Linear(8 * 4 * 4, 10, bias=False)),
            IFNode(),
        )

    def forward(self, x):
        return self.net(x)


model = Vgg()
net = model.net
stdp_learners = [STDPLearner(net[0], net[1]), STDPLearner(net[3], net[4])]
params_stdp = list(net[0].parameters()) + list(net[3].parameters())
params_stdp_set = set(params_stdp)
params_gradient_descent = [p for p in net.parameters() if p not in params_stdp_set]
optimizer_gd = torch.optim.Adam(params_gradient_descent, lr=0.01)
optimizer_stdp = torch.optim.SGD(params_stdp, lr=0.01, momentum=0.0)

T, N = 4, 2
for iteration in range(5):
    x_seq = (torch.rand([T, N, 2, 16, 16]) > 0.5).float()
    target = torch.randint(0, 10, (N,))
    optimizer_gd.zero_grad()
    optimizer_stdp.zero_grad()
    y = model(x_seq).mean(0)
    loss = F.cross_entropy(y, target)
    loss.backward()
    optimizer_stdp.zero_grad()
    for learner in stdp_learners:
        learner.step(on_grad=True)
    optimizer_gd.step()
    optimizer_stdp.step()
    functional.reset_net(model)
    print(f"iteration {iteration} loss {loss.item():.4f} trace graph nodes {graph_size(stdp_learners[1].trace_post)}")
