# expert fix of n4-module-imgclsmob-xception-inplace-relu (the fix is in xception.py)
# %%
import torch
import torch.nn as nn
from xception import Xception
torch.manual_seed(0)
# %%
model = Xception(in_channels=3, num_classes=10)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
images = torch.randn(8, 3, 32, 32)
target = torch.randint(0, 10, (8,))
# %%
model.train()
for epoch in range(2):
    output = model(images)
    loss = criterion(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
