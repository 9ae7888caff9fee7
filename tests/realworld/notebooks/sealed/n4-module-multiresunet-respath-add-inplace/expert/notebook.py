# expert fix of n4-module-multiresunet-respath-add-inplace (the fix is in multiresunet.py)
# %%
import torch
import torch.nn as nn
from multiresunet import MultiResUnet
torch.manual_seed(0)
# %%
images = torch.rand(4, 1, 16, 16)
masks = (torch.rand(4, 1, 16, 16) > 0.5).float()
model = MultiResUnet(channels=1, filters=4, nclasses=1)
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
model.train()
for epoch in range(2):
    optimizer.zero_grad()
    pred = model(images)
    loss = criterion(pred, masks)
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
