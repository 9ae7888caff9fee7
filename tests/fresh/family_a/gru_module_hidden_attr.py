# cause: recurrent_state_not_detached
# line: 18
# why: The module keeps its GRU hidden state in self.hidden across calls without detach, so the second batch's backward re-enters the first batch's freed graph.
import torch
import torch.nn as nn

torch.manual_seed(0)


class StreamModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(2, 8, batch_first=True)
        self.fc = nn.Linear(8, 1)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.gru(x, self.hidden)
        return self.fc(out[:, -1])


model = StreamModel()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.MSELoss()
for step in range(4):
    x = torch.randn(3, 5, 2)
    y = x.sum(dim=(1, 2)).unsqueeze(1)
    loss = crit(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
