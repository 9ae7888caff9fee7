import torch
import torch.nn as nn

torch.manual_seed(0)

x = torch.linspace(-2, 2, 40).unsqueeze(1)
y = torch.sin(2 * x) + 0.05 * torch.randn_like(x)

model = nn.Sequential(nn.Linear(1, 24), nn.SiLU(), nn.Linear(24, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
loss_fn = nn.MSELoss()


def closure():
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss


losses = []
for epoch in range(8):
    loss = opt.step(closure)
    sched.step()
    losses.append(loss.item())

print(losses)
