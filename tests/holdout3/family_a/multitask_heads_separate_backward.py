# cause: shared_subgraph_multiple_backward
# line: 37
# why: The segmentation and depth losses share the encoder forward pass, and calling backward on each separately frees the encoder graph before the second backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SharedEncoderNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(12, 12, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(12, n_classes, 1)
        self.depth_head = nn.Conv2d(12, 1, 1)

    def forward(self, x):
        f = self.encoder(x)
        return self.seg_head(f), self.depth_head(f)


net = SharedEncoderNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
lam_depth = 0.5
log = {"seg": [], "depth": []}

for it in range(4):
    img = torch.randn(2, 3, 12, 12)
    seg_gt = torch.randint(0, 4, (2, 12, 12))
    depth_gt = torch.rand(2, 1, 12, 12)
    seg_logits, depth_pred = net(img)
    loss_seg = F.cross_entropy(seg_logits, seg_gt)
    loss_depth = lam_depth * F.l1_loss(depth_pred, depth_gt)
    opt.zero_grad()
    loss_seg.backward()
    loss_depth.backward()
    opt.step()
    log["seg"].append(loss_seg.item())
    log["depth"].append(loss_depth.item())

print(log)
