# source: https://github.com/fangwei123456/spikingjelly/issues/420
# style: spiking
# cause: recurrent_state_not_detached
# line: 39
# expert: call functional.reset_net(s_model) after each training iteration (the author had forgotten it)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        alpha = ctx.alpha
        return grad_output * alpha / 2 / (1 + (math.pi / 2 * alpha * x) ** 2), None


class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0):
        super().__init__()
        self.tau = tau
        self.v_threshold = v_threshold
        self.v = 0.0

    def reset(self):
        self.v = 0.0

    def forward(self, x):
        self.v = self.v + (x - self.v) / self.tau
        spike = ATan.apply(self.v - self.v_threshold)
        self.v = self.v * (1.0 - spike)
        return spike


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), LIFNode())


class SpikingUNet(nn.Module):
    def __init__(self, T=4):
        super().__init__()
        self.T = T
        self.enc1 = conv_block(3, 8)
        self.enc2 = conv_block(8, 16)
        self.dec1 = conv_block(16 + 8, 8)
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        out = 0.0
        for t in range(self.T):
            e1 = self.enc1(x)
            e2 = self.enc2(F.max_pool2d(e1, 2))
            d1 = self.dec1(torch.cat([F.interpolate(e2, scale_factor=2.0), e1], dim=1))
            out = out + self.head(d1)
        return out / self.T


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()


s_model = SpikingUNet()
optimizer = torch.optim.Adam(s_model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
train_loader = [(torch.rand(2, 3, 16, 16) * 2, (torch.rand(2, 1, 16, 16) > 0.5).float()) for _ in range(3)]

for epoch in range(1):
    s_model.train()
    for image, mask in train_loader:
        output = s_model(image)
        loss = loss_fn(output, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"loss {loss.item():.4f}")
