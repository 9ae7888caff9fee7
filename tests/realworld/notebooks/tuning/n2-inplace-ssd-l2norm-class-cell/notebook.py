# source: variant of https://github.com/lzx1413/PytorchSSD/issues/72
# scenario: inplace_setup
# cause: inplace_modified_saved_tensor
# root: cell 0 line 22
# expert: the L2Norm layer pasted in the first cell divides its input in place (x /= norm), overwriting the inplace-ReLU output saved for backward; write x = x / norm as the thread settled
# %%
import torch
import torch.nn as nn
import torch.nn.init as init
import torch.nn.functional as F
torch.manual_seed(0)


class L2Norm(nn.Module):
    def __init__(self, n_channels, scale):
        super(L2Norm, self).__init__()
        self.n_channels = n_channels
        self.gamma = scale or None
        self.eps = 1e-10
        self.weight = nn.Parameter(torch.Tensor(self.n_channels))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.gamma)

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x /= norm
        out = self.weight.unsqueeze(0).unsqueeze(2).unsqueeze(3).expand_as(x) * x
        return out
# %%
class TinySSD(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=True))
        self.L2Norm = L2Norm(16, 20)
        self.loc = nn.Conv2d(16, 4, 3, padding=1)
        self.conf = nn.Conv2d(16, num_classes, 3, padding=1)

    def forward(self, x):
        x = self.base(x)
        s = self.L2Norm(x)
        return self.loc(s), self.conf(s)

net = TinySSD()
# %%
images = torch.randn(4, 3, 16, 16)
loc_t = torch.randn(4, 4, 16, 16)
conf_t = torch.randint(0, 3, (4, 16, 16))
optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
# %%
def train():
    net.train()
    for iteration in range(3):
        out = net(images)
        optimizer.zero_grad()
        loss_l = F.smooth_l1_loss(out[0], loc_t)
        loss_c = F.cross_entropy(out[1], conf_t)
        loss = loss_l + loss_c
        loss.backward()
        optimizer.step()
        print('iter', iteration, 'loss', loss.item())
# %%
train()
