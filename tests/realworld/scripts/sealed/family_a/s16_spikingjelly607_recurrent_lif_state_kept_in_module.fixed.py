# source: variant of https://github.com/fangwei123456/spikingjelly/issues/607
# style: spiking
# cause: tensor_reused_across_iterations
# line: 31
# expert: the membrane potential the neuron keeps in its own forward still belongs to the previous batch's graph; reset (functional.reset_net) or detach (functional.detach_net) the stateful layers after every optimizer step
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def heaviside_sigmoid(x, alpha=4.0):
    sg = torch.sigmoid(alpha * x)
    return (x >= 0).float() + sg - sg.detach()


class RecurrentLIF(nn.Module):
    """keeps its membrane potential between calls so the network 'remembers' earlier samples"""
    def __init__(self, features, tau=2.0, v_threshold=1.0):
        super().__init__()
        self.rec = nn.Linear(features, features, bias=False)
        self.tau, self.v_threshold = tau, v_threshold
        self.v = None
        self.s = None

    def forward(self, x):
        if self.v is None:
            self.v = torch.zeros_like(x)
            self.s = torch.zeros_like(x)
        self.v = self.v + (x + self.rec(self.s) - self.v) / self.tau
        self.s = heaviside_sigmoid(self.v - self.v_threshold)
        self.v = self.v - self.s * self.v_threshold
        return self.s

    def detach(self):
        if self.v is not None:
            self.v = self.v.detach()
            self.s = self.s.detach()


class Net(nn.Module):
    def __init__(self, T=6):
        super().__init__()
        self.T = T
        self.fc1 = nn.Linear(20, 32)
        self.sn1 = RecurrentLIF(32)
        self.fc2 = nn.Linear(32, 3)

    def forward(self, x):
        out = 0.
        for t in range(self.T):
            out = out + self.fc2(self.sn1(self.fc1(x)))
        return out / self.T


def detach_net(net):
    for m in net.modules():
        if isinstance(m, RecurrentLIF):
            m.detach()


net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for batch in range(4):
    x = torch.rand(16, 20)
    y = torch.randint(0, 3, (16,))
    out_fr = net(x)
    loss = F.cross_entropy(out_fr, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    detach_net(net)
    print(batch, loss.item())
