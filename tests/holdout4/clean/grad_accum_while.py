import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
X = torch.randn(96, 10)
Y = torch.randint(0, 4, (96,))
accum = 3
micro = 8
running_loss = 0.0
i, n_micro = 0, 0
opt.zero_grad()
while i < X.shape[0]:
    loss = F.cross_entropy(model(X[i:i + micro]), Y[i:i + micro]) / accum
    loss.backward()                    # each micro-batch graph is freed right away
    running_loss += loss.item()        # log a Python float, not the graph
    n_micro += 1
    if n_micro % accum == 0:
        opt.step()
        opt.zero_grad()
        sched.step()
    i += micro
print("avg loss", running_loss * accum / n_micro)
