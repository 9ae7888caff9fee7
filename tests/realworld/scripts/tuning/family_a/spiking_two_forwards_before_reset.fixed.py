# source: https://github.com/fangwei123456/spikingjelly/issues/318
# style: spiking
# cause: shared_subgraph_multiple_backward
# line: 79
# expert: call functional.reset_net(model) after the first forward so the second forward does not start from the membrane state (graph) left by the first one
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Sigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=4.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.alpha * x)
        return grad_output * s * (1 - s) * ctx.alpha, None


class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0):
        super().__init__()
        self.tau, self.v_threshold = tau, v_threshold
        self.v = 0.0

    def reset(self):
        self.v = 0.0

    def forward(self, x):
        self.v = self.v + (x - self.v) / self.tau
        spike = Sigmoid.apply(self.v - self.v_threshold)
        self.v = self.v * (1.0 - spike)
        return spike


class SNN(nn.Module):
    def __init__(self, T=4):
        super().__init__()
        self.T = T
        self.fc1 = nn.Linear(16, 32)
        self.sn1 = LIFNode()
        self.fc2 = nn.Linear(32, 5)
        self.sn2 = LIFNode()

    def forward(self, x):
        out = 0.0
        for t in range(self.T):
            out = out + self.sn2(self.fc2(self.sn1(self.fc1(x))))
        return out / self.T


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()


model = SNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
optimizer_2 = torch.optim.SGD(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
trainset = [
    (torch.rand(8, 16) * 3, torch.randint(0, 5, (8,)), torch.rand(8, 16) * 3, torch.randint(0, 5, (8,)))
    for _ in range(3)
]

for x, y, x_2, y_2 in trainset:
    out = model(x)
    functional.reset_net(model)
    out_2 = model(x_2)
    loss = loss_fn(out, y)
    loss_2 = loss_fn(out_2, y_2)
    optimizer.zero_grad()
    loss.backward()
    loss_2.backward()
    optimizer.step()
    optimizer_2.step()
    functional.reset_net(model)
    print(f"loss {loss.item():.4f} loss_2 {loss_2.item():.4f}")
