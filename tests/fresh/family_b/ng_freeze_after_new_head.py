# cause: no_grad_fn
# line: 23
# why: All parameters are frozen after the new classification head was attached, so nothing in the loss requires grad.
import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(10, 8), nn.ReLU())
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(self.features(x))


model = TinyNet()  # pretend it is pretrained
model.fc = nn.Linear(8, 3)  # new head for our 3 classes
for param in model.parameters():
    param.requires_grad = False
opt = torch.optim.SGD(model.fc.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
for step in range(3):
    x, y = torch.randn(4, 10), torch.randint(0, 3, (4,))
    loss = crit(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
