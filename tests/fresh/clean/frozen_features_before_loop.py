import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
head = nn.Linear(16, 3)
X = torch.randn(24, 10)
y = torch.randint(0, 3, (24,))
backbone.eval()
with torch.no_grad():
    feats = backbone(X)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(5):
    for i in range(0, 24, 8):
        loss = F.cross_entropy(head(feats[i:i + 8]), y[i:i + 8])
        opt.zero_grad()
        loss.backward()
        opt.step()
