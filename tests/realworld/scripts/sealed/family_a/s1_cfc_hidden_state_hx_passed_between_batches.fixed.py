# source: https://github.com/mlech26l/ncps/issues/62
import torch
import torch.nn as nn

torch.manual_seed(0)


class CfCCell(nn.Module):
    def __init__(self, input_size, hidden_size, backbone_units=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(input_size + hidden_size, backbone_units), nn.Tanh())
        self.ff1 = nn.Linear(backbone_units, hidden_size)
        self.ff2 = nn.Linear(backbone_units, hidden_size)
        self.time_a = nn.Linear(backbone_units, hidden_size)
        self.time_b = nn.Linear(backbone_units, hidden_size)

    def forward(self, input, hx, ts):
        x = self.backbone(torch.cat([input, hx], 1))
        ff1, ff2 = torch.tanh(self.ff1(x)), torch.tanh(self.ff2(x))
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
            h_state = self.rnn_cell(input[:, t], h_state, 1.0)
            outputs.append(self.fc(h_state))
        return torch.stack(outputs, 1), h_state


model = CfC(10, 17, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()
data = [(torch.randn(4, 5, 10), torch.randn(4, 5, 1)) for _ in range(3)]
hx = None
for epoch in range(2):
    for x, y in data:
        y_hat, hx = model(x, hx)
        hx = hx.detach()
        loss = loss_fn(y_hat, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
