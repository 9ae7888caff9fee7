# source: https://github.com/pytorch/pytorch/issues/111369
# style: sam
# cause: computed_before_loop
# line: 30
# expert: move pred = model(x) inside the closure so every LBFGS re-evaluation does a fresh forward pass
import torch
from torch import nn, optim

torch.manual_seed(0)

x = torch.rand(size=(100, 10))
y = torch.rand(size=(100, 1))


class LinearRegression(nn.Module):
    def __init__(self, p):
        super(LinearRegression, self).__init__()
        self.p = p
        self.lin = nn.Linear(p, 1)

    def forward(self, x):
        output = self.lin(x)
        return output


model = LinearRegression(x.size(1))
optimizer = optim.LBFGS(model.parameters())
criterion = nn.MSELoss()


def closure():
    optimizer.zero_grad()
    pred = model(x)
    loss = criterion(pred, y.view(pred.shape))
    loss.backward()
    return loss


for epoch in range(3):
    loss = optimizer.step(closure)
    print(f"epoch {epoch} loss {loss.item():.5f}")
