import torch
import torch.nn as nn
from accelerate import Accelerator

torch.manual_seed(0)
accelerator = Accelerator(cpu=True)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model, opt = accelerator.prepare(model, opt)
total = 0
for step in range(3):
    x, y = torch.randn(4, 4), torch.randn(4, 1)
    loss = (model(x) - y).pow(2).mean()
    total = total + loss
    opt.zero_grad()
    accelerator.backward(total)
    opt.step()
