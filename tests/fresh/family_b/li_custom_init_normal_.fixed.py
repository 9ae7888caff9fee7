import torch
import torch.nn as nn

torch.manual_seed(0)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.zeros_(m.bias)


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
model.apply(init_weights)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(5, 4), torch.randint(0, 2, (5,))
loss = nn.functional.cross_entropy(model(x), y)
opt.zero_grad()
loss.backward()
opt.step()
