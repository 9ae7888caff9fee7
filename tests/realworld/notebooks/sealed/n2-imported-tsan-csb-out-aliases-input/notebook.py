# source: https://github.com/Jee-King/TSAN/issues/3
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file tsan.py line 62
# expert: CSB.forward in model/tsan.py does out = x and then writes the four quadrants into out, i.e. into the block input that the inplace ReLU and the dense convolutions saved for backward; copy first: out = x.clone()
# %%
import torch
import torch.nn as nn
from tsan import MCAB
torch.manual_seed(0)
# %%
class TSAN(nn.Module):
    """TSAN trunk cut down to one MCAB block (model/tsan.py)"""
    def __init__(self, n_colors=3, n_feats=8, n_denselayer=2):
        super(TSAN, self).__init__()
        self.first_conv = nn.Conv2d(n_colors, n_feats, 1, padding=0, stride=1)
        self.relu = nn.ReLU(inplace=True)
        self.body1 = MCAB(n_feats, n_denselayer, n_feats)
        self.output1 = nn.Conv2d(n_feats, n_colors, 1)

    def forward(self, x):
        first_out = self.relu(self.first_conv(x))
        out_dense1 = self.body1(first_out)
        return self.output1(out_dense1 + first_out)

model = TSAN()
# %%
lr_imgs = torch.rand(2, 3, 8, 8)
hr_imgs = torch.rand(2, 3, 8, 8)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
loss_fn = nn.L1Loss()
# %%
for it in range(2):
    optimizer.zero_grad()
    sr = model(lr_imgs)
    loss = loss_fn(sr, hr_imgs)
    loss.backward()
    optimizer.step()
    print(it, loss.item())
