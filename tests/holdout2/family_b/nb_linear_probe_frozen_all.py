# cause: no_grad_fn
# line: 15
# why: requires_grad_(False) is applied to the whole model including the new head instead of only the backbone, so no parameter requires grad and the loss has no grad_fn.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

backbone = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, 3)
model = nn.Sequential(backbone, head)

# linear probing: only the new head should be trained
model.requires_grad_(False)
opt = torch.optim.Adam(head.parameters(), lr=1e-2)

X = torch.randn(30, 12)
Y = torch.randint(0, 3, (30,))
for epoch in range(3):
    logits = model(X)
    loss = F.cross_entropy(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
