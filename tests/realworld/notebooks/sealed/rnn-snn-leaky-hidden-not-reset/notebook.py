# source: https://github.com/jeshraghian/snntorch/issues/250
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 1 line 16
# expert: the Leaky neurons keep their membrane potential between calls, and the wrapper's forward never resets it, so the next batch starts from state attached to the previous batch's freed graph; call reset(self.net) (utils.reset) at the start of forward, as the thread's answer does
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        return grad_output / (1 + 25 * mem.abs()) ** 2

class Leaky(nn.Module):
    """LIF neuron that keeps its membrane potential between calls (like init_hidden=True)."""
    def __init__(self, beta, threshold=1.0, output=False):
        super().__init__()
        self.beta, self.threshold, self.output = beta, threshold, output
        self.mem = None

    def forward(self, x):
        if self.mem is None:
            self.mem = torch.zeros_like(x)
        self.mem = self.beta * self.mem + x
        spk = FastSigmoidSpike.apply(self.mem - self.threshold)
        self.mem = self.mem - spk * self.threshold
        return (spk, self.mem) if self.output else spk

def reset(net):
    """Clear the hidden state of every Leaky neuron in net (what snntorch.utils.reset does)."""
    for m in net.modules():
        if isinstance(m, Leaky):
            m.mem = None
# %%
num_steps = 5
beta = 0.9
net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), Leaky(beta),
                    nn.Flatten(), nn.Linear(4 * 3 * 3, 2), Leaky(beta, output=True))

class SCNN(nn.Module):
    def __init__(self, net, num_steps):
        super().__init__()
        self.net = net
        self.num_steps = num_steps

    def forward(self, x):
        mem_rec = []
        spk_rec = []
        for step in range(self.num_steps):
            spk_out, mem_out = self.net(x)
            spk_rec.append(spk_out)
            mem_rec.append(mem_out)
        return torch.stack(spk_rec), torch.stack(mem_rec)
# %%
data = torch.rand(16, 1, 8, 8)
targets = torch.randint(0, 2, (16,))
scnn = SCNN(net, num_steps)
optimizer = torch.optim.Adam(scnn.parameters(), lr=5e-3)
loss_fn = nn.CrossEntropyLoss()
# %%
for i in range(0, 16, 4):
    spk_rec, mem_rec = scnn(data[i:i + 4])
    loss_val = sum(loss_fn(mem_rec[step], targets[i:i + 4]) for step in range(num_steps))
    optimizer.zero_grad()
    loss_val.backward()
    optimizer.step()
    print(i, loss_val.item())
