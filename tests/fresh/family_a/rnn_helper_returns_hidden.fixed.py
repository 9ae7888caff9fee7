import torch
import torch.nn as nn

torch.manual_seed(0)


class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(2, 6, nonlinearity="relu")
        self.head = nn.Linear(6, 2)


def train_step(model, opt, x, y, h):
    out, h = model.rnn(x, h.detach())
    loss = nn.functional.mse_loss(model.head(out), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item(), h.detach()


model = Seq()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = torch.randn(21, 1, 2)
h = torch.zeros(1, 1, 6)
for epoch in range(2):
    for i in range(0, 20, 5):
        l, h = train_step(model, opt, data[i:i + 5], data[i + 1:i + 6], h)
        print(epoch, i, l)
