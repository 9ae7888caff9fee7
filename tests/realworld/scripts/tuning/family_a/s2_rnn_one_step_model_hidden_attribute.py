# source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795
# style: timeseries
# cause: recurrent_state_not_detached
# line: 24
# expert: the hidden state the model keeps between calls still points into the previous step's (freed) graph; detach it before each training step (self.hidden = self.hidden.detach()) instead of passing retain_graph=True, which would backpropagate through an ever-growing history
import torch
import torch.nn as nn

torch.manual_seed(0)


class OneStepRNN(nn.Module):
    """Executes one step of a recurrent network and updates its hidden state in the forward pass."""

    def __init__(self, n_in=3, n_hidden=8, n_out=1):
        super().__init__()
        self.i2h = nn.Linear(n_in + n_hidden, n_hidden)
        self.h2o = nn.Linear(n_hidden, n_out)
        self.hidden = torch.zeros(1, n_hidden)
        self.loss = nn.MSELoss()
        self.optimizer = torch.optim.SGD(self.parameters(), lr=0.01)

    def forward(self, x):
        self.hidden = torch.tanh(self.i2h(torch.cat([x, self.hidden], dim=1)))
        return self.h2o(self.hidden)

    def train_it(self, x, y):
        prediction = self(x)
        loss = self.loss(prediction, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


model = OneStepRNN()
series = torch.sin(torch.linspace(0, 6.28, 21)).unsqueeze(1)
for t in range(20):
    x = torch.cat([series[t:t + 1], torch.ones(1, 2) * t / 20], dim=1)
    y = series[t + 1:t + 2]
    print(t, model.train_it(x, y))
