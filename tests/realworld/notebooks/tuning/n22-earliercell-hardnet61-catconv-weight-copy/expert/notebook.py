# source: https://github.com/PingoLH/FCHarDNet/issues/61
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
device, dtype = torch.device("cpu"), torch.float32

class CatConv2d(nn.Module):
    # stand-in for the CUDA CatConv2d: a convolution over the concatenation of a list of inputs
    def __init__(self, in_channels, out_channels, kernel_size, relu=False):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, *kernel_size))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.kaiming_uniform_(self.weight)
        self.relu = relu

    def forward(self, x_list):
        out = F.conv2d(torch.cat(x_list, 1), self.weight, self.bias, padding=self.weight.size(-1) // 2)
        return F.relu(out) if self.relu else out
# %%
x_list = [10, 20, 12]
img_sz = 9
output_ch = 12
X_list = [torch.randn(2, x, img_sz, img_sz).to(device, dtype) for x in x_list]
print("in channels = ", sum(x_list))

W = torch.randn(output_ch, sum(x_list), 3, 3).to(device, dtype)
bias = torch.randn(output_ch).to(device, dtype)
# %%
cconv = CatConv2d( sum(x_list), output_ch, (3,3), relu=False).to(device, dtype)
conv = nn.Conv2d(sum(x_list), output_ch, kernel_size=3, stride=1, bias=True, padding=1).to(device, dtype)
with torch.no_grad():
    cconv.weight[:,:,:,:] = W[:,:,:,:]
    cconv.bias[:] = bias[:]
    conv.weight[:,:,:,:] = W[:,:,:,:]
    conv.bias[:] = bias[:]

out = cconv(X_list)
out2 = conv(torch.cat(X_list,1))
print("top 10 difference:", torch.topk((abs(out-out2)).flatten(), 10)[0])
