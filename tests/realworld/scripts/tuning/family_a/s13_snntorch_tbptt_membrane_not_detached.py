# source: https://github.com/jeshraghian/snntorch/issues/172
# style: spiking
# cause: recurrent_state_not_detached
# line: 44
# expert: In the manual truncated-BPTT loop the Leaky neurons keep their membrane potential in self.mem across the K-step chunks, so the second chunk's loss reaches back into the first chunk's graph, already freed by backward; as the maintainer says, after each update detach the state variables from the graph (mem.detach_(), i.e. net.detach_hidden()).
import torch
import torch.nn as nn

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    """Heaviside spike with an arctan surrogate gradient (as snntorch.surrogate.atan)."""
    alpha = 2.0

    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        a = ATan.alpha
        return grad_output * a / 2 / (1 + (torch.pi / 2 * a * mem).pow(2))


class Leaky(nn.Module):
    """Leaky integrate-and-fire neuron with init_hidden=True: the membrane lives in self.mem."""
    def __init__(self, beta, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.mem = torch.zeros(1)

    def reset_hidden(self):
        self.mem = torch.zeros(1)

    def detach_hidden(self):
        self.mem.detach_()

    def forward(self, input_):
        reset = (self.mem > self.threshold).float().detach() * self.threshold
        self.mem = self.beta * self.mem + input_ - reset
        return ATan.apply(self.mem - self.threshold)


class Net(nn.Module):
    """forward simulates one single time-step, as recommended in the issue."""
    def __init__(self, num_inputs=6, num_hidden=16, num_outputs=2, beta=0.9):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.lif1 = Leaky(beta)
        self.fc2 = nn.Linear(num_hidden, num_outputs)
        self.lif2 = Leaky(beta)

    def forward(self, x):
        spk1 = self.lif1(self.fc1(x))
        spk2 = self.lif2(self.fc2(spk1))
        return spk2, self.lif2.mem

    def reset(self):
        for m in self.modules():
            if isinstance(m, Leaky):
                m.reset_hidden()

    def detach_hidden(self):
        for m in self.modules():
            if isinstance(m, Leaky):
                m.detach_hidden()


net = Net()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
loss_fn = nn.MSELoss()

num_steps, K = 12, 4
data = torch.rand(num_steps, 8, 6)            # time-varying input signal
target = torch.rand(num_steps, 8, 2)          # membrane target

for epoch in range(2):
    net.reset()
    mem_rec = []
    for step in range(num_steps):
        spk_out, mem_out = net(data[step])
        mem_rec.append(mem_out)
        if (step + 1) % K == 0:
            loss = loss_fn(torch.stack(mem_rec), target[step + 1 - K:step + 1])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            mem_rec = []
            print(f"epoch {epoch} step {step + 1}: loss {loss.item():.4f}")
