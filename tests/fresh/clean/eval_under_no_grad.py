import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 3))
crit = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
val = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(2)]
for epoch in range(2):
    model.train()
    for x, y in train:
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val:
            correct += (model(x).argmax(1) == y).sum().item()
    print(epoch, correct)
