# cause: no_grad_fn
# line: 16
# why: The per-sample losses are turned into Python floats with .item() and rewrapped with torch.tensor, cutting the graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(6, 3)
y = torch.randint(0, 2, (6,))

for epoch in range(3):
    out = model(x)
    loss = torch.tensor([crit(out[i:i + 1], y[i:i + 1]).item() for i in range(len(x))]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
