# source: https://github.com/jeshraghian/snntorch/issues/250
# style: spiking
# cause: recurrent_state_not_detached
# line: 44
# expert: reset the hidden states of all Leaky neurons (utils.reset(net)) at the start of every forward pass over the time steps
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FastSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem, slope=25.0):
        ctx.save_for_backward(mem)
        ctx.slope = slope
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        grad = grad_output / (ctx.slope * mem.abs() + 1.0) ** 2
        return grad, None


class Leaky(nn.Module):
    """Leaky integrate-and-fire neuron that keeps its membrane as hidden state (init_hidden=True)."""

    def __init__(self, beta, threshold=1.0, output=False):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.output = output
        self.mem = None

    def reset_hidden(self):
        self.mem = None

    def forward(self, input_):
        if self.mem is None:
            self.mem = torch.zeros_like(input_)
        reset = (self.mem > self.threshold).float().detach() * self.threshold
        self.mem = self.beta * self.mem + input_ - reset
        spk = FastSigmoid.apply(self.mem - self.threshold)
        if self.output:
            return spk, self.mem
        return spk


def reset(net):
    for m in net.modules():
        if isinstance(m, Leaky):
            m.reset_hidden()


beta = 0.5
num_steps = 5
net = nn.Sequential(
    nn.Conv2d(1, 4, 5),
    nn.MaxPool2d(2),
    Leaky(beta=beta),
    nn.Conv2d(4, 8, 5),
    nn.MaxPool2d(2),
    Leaky(beta=beta),
    nn.Flatten(),
    nn.Linear(8 * 4 * 4, 10),
    Leaky(beta=beta, output=True),
)


def forward_pass(net, num_steps, data):
    mem_rec = []
    spk_rec = []
    reset(net)  # resets hidden states for all LIF neurons in net
    for step in range(num_steps):
        spk_out, mem_out = net(data)
        spk_rec.append(spk_out)
        mem_rec.append(mem_out)
    return torch.stack(spk_rec), torch.stack(mem_rec)


optimizer = torch.optim.Adam(net.parameters(), lr=2e-2, betas=(0.9, 0.999))
train_data = [(torch.rand(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(3)]

for epoch in range(1):
    for data, targets in train_data:
        net.train()
        spk_rec, mem_rec = forward_pass(net, num_steps, data)
        loss_val = F.cross_entropy(spk_rec.sum(0), targets)
        optimizer.zero_grad()
        loss_val.backward()
        optimizer.step()
        print(f"loss {loss_val.item():.4f}")
