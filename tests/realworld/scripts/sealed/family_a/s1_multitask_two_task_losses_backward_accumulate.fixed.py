# source: https://github.com/NVIDIA/apex/issues/85
import torch
import torch.nn as nn

torch.manual_seed(0)


class TaskonomyNet(nn.Module):
    def __init__(self, tasks=('depth', 'normal')):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.decoders = nn.ModuleDict({'depth': nn.Conv2d(8, 1, 1), 'normal': nn.Conv2d(8, 3, 1)})
        self.tasks = tasks

    def forward(self, x):
        rep = self.encoder(x)
        return [self.decoders[t](rep) for t in self.tasks]


model = TaskonomyNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criteria = [nn.L1Loss(), nn.MSELoss()]
for step in range(3):
    x = torch.randn(2, 3, 8, 8)
    targets = [torch.randn(2, 1, 8, 8), torch.randn(2, 3, 8, 8)]
    outputs = model(x)
    loss1 = criteria[0](outputs[0], targets[0])
    loss2 = criteria[1](outputs[1], targets[1])
    optimizer.zero_grad()
    (loss1 + loss2).backward()
    optimizer.step()
    print(step, loss1.item(), loss2.item())
