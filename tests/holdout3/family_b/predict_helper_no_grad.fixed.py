import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def predict(model, x):
    with torch.no_grad():
        return model(x)


def evaluate(model, x, y):
    return F.mse_loss(predict(model, x), y).item()


model = Regressor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x_tr, x_va = torch.randn(64, 5), torch.randn(16, 5)
w_true = torch.randn(5)
y_tr, y_va = x_tr @ w_true, x_va @ w_true

for epoch in range(4):
    model.train()
    loss = F.mse_loss(model(x_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.eval()
    print(epoch, loss.item(), evaluate(model, x_va, y_va))
