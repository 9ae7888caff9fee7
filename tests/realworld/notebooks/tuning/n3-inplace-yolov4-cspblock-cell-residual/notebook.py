# source: variant of https://github.com/argusswift/YOLOv4-pytorch/issues/247
# scenario: inplace_setup
# cause: inplace_modified_saved_tensor
# root: cell 1 line 24
# expert: the CSPBlock defined in the model cell adds the shortcut in place (out += residual) to the output of the last Convolutional, whose ReLU(inplace=True) output is saved by ReluBackward0 when activate='relu'; use out = out + residual (the fix the reporter found)
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
activate_name = {"relu": nn.ReLU, "leaky": nn.LeakyReLU}
# %%
class Convolutional(nn.Module):
    def __init__(self, filters_in, filters_out, kernel_size, stride=1, activate="relu"):
        super(Convolutional, self).__init__()
        self.conv = nn.Conv2d(filters_in, filters_out, kernel_size, stride, kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(filters_out)
        self.activate = activate_name[activate](inplace=True)

    def forward(self, x):
        return self.activate(self.bn(self.conv(x)))

class CSPBlock(nn.Module):
    def __init__(self, in_channels, out_channels, hidden_channels=None, activate="relu"):
        super(CSPBlock, self).__init__()
        if hidden_channels is None:
            hidden_channels = out_channels
        self.block = nn.Sequential(
            Convolutional(in_channels, hidden_channels, 1, activate=activate),
            Convolutional(hidden_channels, out_channels, 3, activate=activate),
        )

    def forward(self, x):
        residual = x
        out = self.block(x)
        out += residual
        return out
# %%
net = nn.Sequential(Convolutional(3, 8, 3, activate="relu"), CSPBlock(8, 8), CSPBlock(8, 8), nn.Conv2d(8, 4, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9)
imgs = torch.randn(2, 3, 8, 8)
label = torch.randn(2, 4, 8, 8)
# %%
p = net(imgs)
loss = ((p - label) ** 2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
