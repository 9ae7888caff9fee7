# source: variant of https://github.com/mlech26l/ncps/issues/62
# style: tabular
# cause: recurrent_state_not_detached
# line: 46
# expert: detach the GRU hidden state returned for one window before feeding it to the next window (hidden = hidden.detach()), i.e. truncated BPTT over consecutive windows of the table
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

# daily sales table: 4 stores x 96 days x [sales, promo, holiday, weekday, temperature]
table = np.random.rand(4, 96, 5).astype(np.float32)
features = torch.from_numpy(table)
target = features[:, 1:, :1]
features = features[:, :-1]


class SalesForecaster(nn.Module):
    def __init__(self, n_features=5, hidden_size=16):
        super().__init__()
        self.gru = nn.GRU(n_features, hidden_size, batch_first=True)
        self.head = nn.Linear(hidden_size, 1)

    def forward(self, x, hidden=None):
        out, hidden = self.gru(x, hidden)
        return self.head(out), hidden


model = SalesForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()
window = 19
for epoch in range(2):
    hidden = None
    epoch_loss = 0.0
    for start in range(0, features.shape[1], window):
        x = features[:, start:start + window]
        y = target[:, start:start + window]
        optimizer.zero_grad()
        pred, hidden = model(x, hidden)
        loss = criterion(pred, y)
        loss.backward()
        optimizer.step()
        hidden = hidden.detach()
        epoch_loss += loss.item()
    print(f"epoch {epoch} loss {epoch_loss:.4f}")
