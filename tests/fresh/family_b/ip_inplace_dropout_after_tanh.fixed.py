import torch
import torch.nn as nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.drop = nn.Dropout(p=0.2)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        h = self.drop(h)
        return self.fc2(h)


model = MLP()
model.train()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
for step in range(3):
    x, y = torch.randn(4, 8), torch.randint(0, 2, (4,))
    loss = crit(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
