# source: https://github.com/jeshraghian/snntorch/pull/108
# style: spiking
# cause: recurrent_state_not_detached
# line: 51
# expert: detach (and reset) the recurrent spike state of RLeaky in detach_hidden/reset_hidden, not only the membrane potential
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FastSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x > 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (25.0 * x.abs() + 1.0) ** 2


class RLeaky(nn.Module):
    """Recurrent leaky neuron: its own spikes are fed back through a linear recurrent weight."""

    def __init__(self, beta, size, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.recurrent = nn.Linear(size, size)
        self.spk = None
        self.mem = None

    def reset_hidden(self):
        self.mem = None
        self.spk = None

    def detach_hidden(self):
        if self.mem is not None:
            self.mem = self.mem.detach()
        if self.spk is not None:
            self.spk = self.spk.detach()

    def forward(self, input_):
        if self.mem is None:
            self.mem = torch.zeros_like(input_)
            self.spk = torch.zeros_like(input_)
        reset = (self.mem > self.threshold).to(input_).detach() * self.threshold
        self.mem = self.beta * self.mem + input_ + self.recurrent(self.spk) - reset
        spk = FastSigmoid.apply(self.mem - self.threshold)
        self.spk = spk
        return spk, self.mem


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 32)
        self.lif1 = RLeaky(beta=0.9, size=32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x_t):
        spk, _ = self.lif1(self.fc1(x_t))
        return self.fc2(spk)


net = Net()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
num_steps, K = 12, 4
data = torch.rand(num_steps, 8, 20) * 2
targets = torch.randint(0, 4, (8,))

# truncated backprop through time: update every K time steps
for epoch in range(2):
    net.lif1.reset_hidden()
    for chunk_start in range(0, num_steps, K):
        out_sum = 0
        for t in range(chunk_start, chunk_start + K):
            out_sum = out_sum + net(data[t])
        loss = F.cross_entropy(out_sum, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        net.lif1.detach_hidden()
        print(f"epoch {epoch} t={chunk_start} loss {loss.item():.4f}")
