import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StatefulForecaster(nn.Module):
    def __init__(self, n_features=3, hidden=20):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)
        self.hidden = None

    def reset_state(self):
        self.hidden = None

    def forward(self, x):
        h0 = None if self.hidden is None else self.hidden.detach()
        out, self.hidden = self.gru(x, h0)
        return self.out(out[:, -1])


prices = torch.cumsum(torch.randn(1, 121, 3) * 0.1, dim=1)
model = StatefulForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
scheduler = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
window = 20

for epoch in range(2):
    model.reset_state()
    epoch_loss = 0.0
    for s in range(0, 100, window):
        x = prices[:, s:s + window]
        y = prices[:, s + window, :1]
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    scheduler.step()
    print(epoch, epoch_loss)
