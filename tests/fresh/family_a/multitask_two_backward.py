# cause: shared_subgraph_multiple_backward
# line: 33
# why: Classification and regression losses share the trunk's graph; loss_cls.backward() frees it before loss_reg.backward() runs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.cls_head = nn.Linear(16, 3)
        self.reg_head = nn.Linear(16, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.reg_head(h)


net = MultiTaskNet()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(3):
    x = torch.randn(8, 6)
    y_cls = torch.randint(0, 3, (8,))
    y_reg = torch.randn(8, 1)
    logits, value = net(x)
    loss_cls = F.cross_entropy(logits, y_cls)
    loss_reg = F.mse_loss(value, y_reg)
    opt.zero_grad()
    loss_cls.backward()
    loss_reg.backward()
    opt.step()
    print(step, loss_cls.item(), loss_reg.item())
