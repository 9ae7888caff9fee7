# source: https://github.com/ultralytics/yolov5/issues/1552
# style: vision
# cause: leaf_inplace
# line: 52
# expert: Model._initialize_biases takes `b = mi.bias.view(m.na, -1)`, a view of a leaf Parameter that requires grad, and adds the objectness/class priors to it in place (`b[:, 4] += ...`), which newer PyTorch rejects. The fix reported in the thread wraps the two in-place bias updates in `with torch.no_grad():`.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)


class Detect(nn.Module):
    stride = None

    def __init__(self, nc=80, anchors=(), ch=()):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer('anchors', torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def forward(self, x):
        out = []
        for i in range(self.nl):
            xi = self.m[i](x[i])
            bs, _, ny, nx = xi.shape
            out.append(xi.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous())
        return out


class Model(nn.Module):
    def __init__(self, nc=4, anchors=((10, 13, 16, 30, 33, 23), (30, 61, 62, 45, 59, 119))):
        super().__init__()
        self.backbone = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.SiLU()),
            nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.SiLU()),
        ])
        self.model = nn.ModuleList([Detect(nc, anchors, ch=(8, 16))])
        m = self.model[-1]
        m.stride = torch.tensor([2.0, 4.0])
        m.anchors /= m.stride.view(-1, 1, 1)
        self._initialize_biases()  # only run once

    def _initialize_biases(self, cf=None):  # initialize biases into Detect(), cf is class frequency
        m = self.model[-1]  # Detect() module
        for mi, s in zip(m.m, m.stride):  # from
            b = mi.bias.view(m.na, -1)  # conv.bias(255) to (3,85)
            b[:, 4] += math.log(8 / (640 / s) ** 2)  # obj (8 objects per 640 image)
            b[:, 5:] += math.log(0.6 / (m.nc - 0.99)) if cf is None else torch.log(cf / cf.sum())  # cls
            mi.bias = torch.nn.Parameter(b.view(-1), requires_grad=True)

    def forward(self, x):
        feats = []
        for layer in self.backbone:
            x = layer(x)
            feats.append(x)
        return self.model[-1](feats)


model = Model(nc=4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)
imgs = torch.randn(2, 3, 32, 32)
for epoch in range(2):
    pred = model(imgs)
    loss = sum(p[..., 4].sigmoid().mean() for p in pred)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", loss.item())
