# source: https://github.com/argusswift/YOLOv4-pytorch/issues/247
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file CSPDarknet53.py line 36
# expert: with activate='relu' the last Convolutional of each CSPBlock ends in ReLU(inplace=True), whose output ReluBackward0 saves; CSPBlock.forward then does out += residual on that output; replace it with out = out + residual in CSPDarknet53.py (the fix the reporter found)
# %%
import torch
import torch.nn as nn
from CSPDarknet53 import CSPDarknet53
torch.manual_seed(0)
# %%
backbone = CSPDarknet53(activate="relu")
head = nn.Conv2d(16, 4, 1)
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=1e-3, momentum=0.9)
imgs = torch.randn(2, 3, 16, 16)
targets = torch.randn(2, 4, 4, 4)
# %%
for it in range(2):
    optimizer.zero_grad()
    p = head(backbone(imgs))
    loss = ((p - targets) ** 2).mean()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
