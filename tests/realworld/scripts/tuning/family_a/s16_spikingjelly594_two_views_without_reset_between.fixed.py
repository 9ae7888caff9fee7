# source: variant of https://github.com/fangwei123456/spikingjelly/issues/594
# style: spiking
# cause: shared_subgraph_multiple_backward
# line: 52
# expert: call functional.reset_net(model) right after each forward pass (img0, then img1), so the second view does not start from the first view's membrane potential, and backpropagate the summed loss once
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LIF(nn.Module):
    def __init__(self, tau=2.0):
        super().__init__()
        self.tau = tau
        self.v = 0.

    def reset(self):
        self.v = 0.

    def forward(self, x):
        self.v = self.v + (x - self.v) / self.tau
        sg = torch.sigmoid(4 * (self.v - 1.0))
        spike = (self.v >= 1.0).float() + sg - sg.detach()
        self.v = self.v * (1 - spike)
        return spike


class StereoSNN(nn.Module):
    def __init__(self, T=4):
        super().__init__()
        self.T = T
        self.enc = nn.Linear(24, 32)
        self.lif = LIF()
        self.head = nn.Linear(32, 1)

    def forward(self, img, depth, flag=0):
        out = 0.
        for t in range(self.T):
            out = out + self.head(self.lif(self.enc(torch.cat([img, depth], 1))))
        return out / self.T


model = StereoSNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for it in range(2):
    img0, img1 = torch.rand(8, 16), torch.rand(8, 16)
    img0_depth, img1_depth = torch.rand(8, 8), torch.rand(8, 8)
    target = torch.rand(8, 1)
    s1 = model.forward(img0, img0_depth, flag=0)
    model.lif.reset()  # functional.reset_net(model)
    s2 = model.forward(img1, img1_depth, flag=0)
    model.lif.reset()  # functional.reset_net(model)
    loss1 = F.mse_loss(s1, target)
    loss2 = F.mse_loss(s2, target)
    optimizer.zero_grad()
    (loss1 + loss2).backward()
    optimizer.step()
    print(it, loss1.item(), loss2.item())
