import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(20, 16), nn.ReLU())
        self.head = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


model = Classifier(num_classes=10)
model.head = nn.Linear(16, 3)
for p in model.backbone.parameters():
    p.requires_grad = False
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1)

for step in range(3):
    x, y = torch.randn(8, 20), torch.randint(0, 3, (8,))
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
