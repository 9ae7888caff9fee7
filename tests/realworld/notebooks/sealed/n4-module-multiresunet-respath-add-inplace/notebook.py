# source: https://github.com/j-sripad/mulitresunet-pytorch/issues/3
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file multiresunet.py line 59
# expert: in multiresunet.py Respath adds the shortcut in place (x += shortcut) to the output of F.relu, which relu saved for its backward, so loss.backward() in the training cell fails; as the issue says, write the additions out of place (x = x + shortcut, x = x + temp)
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
