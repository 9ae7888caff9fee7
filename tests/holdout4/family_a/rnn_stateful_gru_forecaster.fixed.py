import torch
import torch.nn as nn
import torch.nn.functional as F



class StatefulGRUForecaster(nn.Module):
    def __init__(self, d_in=3, hidden=24):
        super().__init__()
        self.gru = nn.GRU(d_in, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)
        self.h = None

    def reset_state(self):
        self.h = None

    def forward(self, x):
        y, h = self.gru(x, self.h)
        self.h = h.detach()
        return self.out(y[:, -1])


torch.manual_seed(0)
series = torch.randn(4, 200, 3).cumsum(1) * 0.1
target = series[:, :, 0]
window = 20
model = StatefulGRUForecaster()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(2):
    model.reset_state()
    for start in range(0, 180, window):
        xb = series[:, start:start + window]
        yb = target[:, start + window].unsqueeze(-1)
        pred = model(xb)
        loss = F.mse_loss(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, loss.item())
