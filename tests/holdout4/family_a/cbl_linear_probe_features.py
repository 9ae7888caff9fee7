# cause: computed_before_loop
# line: 14
# why: feats is computed once with the backbone's graph attached and every head update backpropagates into it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 16))   # "pretrained"
head = nn.Linear(16, 4)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
X = torch.randn(100, 32)
Y = torch.randint(0, 4, (100,))
feats = backbone(X)  # embed the whole dataset once
for epoch in range(5):
    perm = torch.randperm(100)
    for i in range(0, 100, 25):
        idx = perm[i:i + 25]
        loss = F.cross_entropy(head(feats[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, round(loss.item(), 4))
