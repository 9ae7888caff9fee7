# source: https://github.com/mlech26l/ncps/issues/62
# style: rnn
# cause: recurrent_state_not_detached
# line: 64
# expert: detach the hidden state returned by the CfC model before passing it into the next batch (hx = hx.detach()), i.e. truncated BPTT; retain_graph=True only turns the error into the in-place version error once optimizer.step() changed the weights
import torch
import torch.nn as nn

torch.manual_seed(0)


class CfCCell(nn.Module):
    """Closed-form continuous-time cell (plain torch version of ncps.torch.CfCCell, default mode)."""

    def __init__(self, input_size, hidden_size, backbone_units=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(input_size + hidden_size, backbone_units), nn.LeakyReLU())
        self.ff1 = nn.Linear(backbone_units, hidden_size)
        self.ff2 = nn.Linear(backbone_units, hidden_size)
        self.time_a = nn.Linear(backbone_units, hidden_size)
        self.time_b = nn.Linear(backbone_units, hidden_size)

    def forward(self, input, hx, ts=1.0):
        x = self.backbone(torch.cat([input, hx], 1))
        ff1 = torch.tanh(self.ff1(x))
        ff2 = torch.tanh(self.ff2(x))
        t_interp = torch.sigmoid(self.time_a(x) * ts + self.time_b(x))
        return ff1 * (1.0 - t_interp) + t_interp * ff2


class CfC(nn.Module):
    def __init__(self, input_size, units, proj_size):
        super().__init__()
        self.units = units
        self.rnn_cell = CfCCell(input_size, units)
        self.fc = nn.Linear(units, proj_size)

    def forward(self, input, hx=None):
        batch_size, seq_len = input.size(0), input.size(1)
        h_state = torch.zeros(batch_size, self.units) if hx is None else hx
        outputs = []
        for t in range(seq_len):
            h_state = self.rnn_cell(input[:, t], h_state)
            outputs.append(self.fc(h_state))
        return torch.stack(outputs, dim=1), h_state


model = CfC(input_size=6, units=10, proj_size=1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
criterion = nn.MSELoss()
# consecutive windows of one long sensor series, batch of 17 parallel series
series = torch.randn(17, 60, 6)
target = series[..., :1].roll(-1, dims=1)
hx = None
for epoch in range(2):
    for start in range(0, 60, 15):
        x_batch = series[:, start:start + 15]
        y_batch = target[:, start:start + 15]
        optimizer.zero_grad()
        y_pred, hx = model(x_batch, hx)
        loss = criterion(y_pred, y_batch)
        loss.backward()
        optimizer.step()
        hx = hx.detach()
    print(f"epoch {epoch} loss {loss.item():.4f}")
    hx = None
