import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 2))
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
accumulation_steps = 4
loader = [(torch.randn(3, 5), torch.randint(0, 2, (3,))) for _ in range(8)]
opt.zero_grad()
running = 0.0
for i, (x, y) in enumerate(loader):
    loss = crit(model(x), y) / accumulation_steps
    loss.backward()
    running += loss.item()
    if (i + 1) % accumulation_steps == 0:
        opt.step()
        opt.zero_grad()
print(running)
