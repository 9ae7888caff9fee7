# source: variant of https://github.com/davda54/sam/issues/45
# scenario: imported_module
# cause: shared_subgraph_multiple_backward
# root: file trainlib.py line 35
# expert: train() in trainlib.py reuses `output` of the first forward for the second SAM pass, whose graph the first backward freed; recompute it: criterion(model(images), target).backward()
# %%
import io
import torch
import torch.nn as nn
from sam import SAM
from trainlib import train
torch.manual_seed(0)
# %%
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
criterion = nn.CrossEntropyLoss()
base_optimizer = torch.optim.SGD
optimizer = SAM(model.parameters(), base_optimizer, lr=0.1, momentum=0.9)
train_loader = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]
args = None
f = io.StringIO()
# %%
for epoch in range(2):
    print(train(train_loader, model, criterion, optimizer, epoch, args, f))
