import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
X = torch.randn(10, 3)
y = (X[:, 0] > 0).float()[:, None]

for epoch in range(3):
    logits = model(X)
    loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
