import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.Sigmoid(), nn.Linear(6, 2))
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = [(torch.randn(5, 4), torch.randint(0, 2, (5,))) for _ in range(3)]

for epoch in range(2):
    for xb, yb in loader:
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        total = sum(p.grad.abs().sum() for p in model.parameters())
        opt.step()
    # epoch summary: gradient norm of the final batch (already computed)
    print(epoch, loss.item(), total.item())
