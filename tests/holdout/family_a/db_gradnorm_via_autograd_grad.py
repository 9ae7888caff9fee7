# cause: double_backward
# line: 24
# why: torch.autograd.grad(loss, params) for grad-norm logging frees the graph, then loss.backward() walks it again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(64, 10)
Y = torch.randint(0, 3, (64,))
grad_norms = []


def train_one_epoch(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        grads = torch.autograd.grad(loss, list(model.parameters()))
        grad_norms.append(torch.sqrt(sum((g ** 2).sum() for g in grads)).item())
        loss.backward()
        optimizer.step()


loader = list(zip(X.split(16), Y.split(16)))
for epoch in range(2):
    train_one_epoch(model, loader, optimizer)
