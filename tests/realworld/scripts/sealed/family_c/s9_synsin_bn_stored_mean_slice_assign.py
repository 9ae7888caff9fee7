# source: variant of https://github.com/facebookresearch/synsin/pull/20
# style: vision
# cause: graph_kept_alive
# line: 62
# expert: The custom BigGAN-style `bn` writes the running statistics into its buffers with `self.stored_mean[:] = self.stored_mean * (1 - momentum) + mean * momentum`, where `mean`/`var` carry the graph of the current batch, so the buffers become graph nodes and every forward extends the chain (~7MB/s leak in ResNetEncoder/Decoder). The merged fix wraps the stored-statistics update in `with torch.no_grad():`.
import torch
import torch.nn as nn
from torch.nn.parameter import Parameter

torch.manual_seed(0)


# Fused batchnorm op
def fused_bn(x, mean, var, gain=None, bias=None, eps=1e-5):
    scale = torch.rsqrt(var + eps)
    if gain is not None:
        scale = scale * gain
    shift = mean * scale
    if bias is not None:
        shift = shift - bias
    return x * scale - shift


# Manual BN: mean-of-squares minus mean-squared
def manual_bn(x, gain=None, bias=None, return_mean_var=False, eps=1e-5):
    float_x = x.float()
    m = torch.mean(float_x, [0, 2, 3], keepdim=True)
    m2 = torch.mean(float_x ** 2, [0, 2, 3], keepdim=True)
    var = m2 - m ** 2
    var = var.type(x.type())
    m = m.type(x.type())
    if return_mean_var:
        return fused_bn(x, m, var, gain, bias, eps), m.squeeze(), var.squeeze()
    return fused_bn(x, m, var, gain, bias, eps)


class bn(nn.Module):
    def __init__(self, num_channels, eps=1e-5, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.eps = eps
        self.register_buffer("stored_mean", torch.zeros(num_channels))
        self.register_buffer("stored_var", torch.ones(num_channels))
        self.register_buffer("accumulation_counter", torch.zeros(1))
        self.accumulate_standing = False

    def reset_stats(self):
        self.stored_mean[:] = 0
        self.stored_var[:] = 0
        self.accumulation_counter[:] = 0

    def forward(self, x, gain, bias):
        if self.training:
            out, mean, var = manual_bn(x, gain, bias, return_mean_var=True, eps=self.eps)
            # If accumulating standing stats, increment them
            if self.accumulate_standing:
                self.stored_mean[:] = self.stored_mean + mean.data
                self.stored_var[:] = self.stored_var + var.data
                self.accumulation_counter += 1.0
            # If not accumulating standing stats, take running averages
            else:
                self.stored_mean[:] = (
                    self.stored_mean * (1 - self.momentum) + mean * self.momentum
                )
                self.stored_var[:] = (
                    self.stored_var * (1 - self.momentum) + var * self.momentum
                )
            return out
        else:
            mean = self.stored_mean.view(1, -1, 1, 1)
            var = self.stored_var.view(1, -1, 1, 1)
            if self.accumulate_standing:
                mean = mean / self.accumulation_counter
                var = var / self.accumulation_counter
            return fused_bn(x, mean, var, gain, bias, self.eps)


class BatchNorm_StandingStats(nn.Module):
    def __init__(self, output_size, eps=1e-5, momentum=0.1):
        super().__init__()
        self.output_size = output_size
        self.register_parameter("gain", Parameter(torch.ones(output_size)))
        self.register_parameter("bias", Parameter(torch.zeros(output_size)))
        self.eps = eps
        self.momentum = momentum
        self.bn = bn(output_size, self.eps, self.momentum)

    def forward(self, x, y=None):
        gain = self.gain.view(1, -1, 1, 1)
        bias = self.bias.view(1, -1, 1, 1)
        return self.bn(x, gain=gain, bias=bias)


class ResNetBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.norm1 = BatchNorm_StandingStats(ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.norm2 = BatchNorm_StandingStats(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        h = self.conv1(torch.relu(self.norm1(x)))
        h = self.conv2(torch.relu(self.norm2(h)))
        return x + h


class ResNetEncoder(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.blocks = nn.Sequential(ResNetBlock(ch), ResNetBlock(ch))
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        return self.out(self.blocks(self.inp(x)))


model = ResNetEncoder()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for it in range(5):
    img = torch.randn(2, 3, 16, 16)
    target = torch.randn(2, 3, 16, 16)
    pred = model(img)
    loss = (pred - target).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

print("stored_mean grad_fn:", model.blocks[0].norm1.bn.stored_mean.grad_fn)
