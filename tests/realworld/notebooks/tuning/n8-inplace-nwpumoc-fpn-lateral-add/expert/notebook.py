# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
class FPN(nn.Module):
    """
    Feature Pyramid Network.
    """

    def __init__(self, in_channels, out_channels, num_outs, start_level=0, end_level=-1,
                 extra_convs_on_inputs=True, bn=True):
        super(FPN, self).__init__()
        assert isinstance(in_channels, list)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.num_ins = len(in_channels)
        self.num_outs = num_outs
        self.backbone_end_level = self.num_ins
        self.start_level = start_level
        self.end_level = end_level
        self.extra_convs_on_inputs = extra_convs_on_inputs

        self.lateral_convs = nn.ModuleList()
        self.fpn_convs = nn.ModuleList()
        for i in range(self.start_level, self.backbone_end_level):
            l_conv = Conv2d(in_channels[i], out_channels, 1, bn=bn, bias=not bn, same_padding=True)
            fpn_conv = Conv2d(out_channels, out_channels, 3, bn=bn, bias=not bn, same_padding=True)
            self.lateral_convs.append(l_conv)
            self.fpn_convs.append(fpn_conv)
        self.init_weights()

    def init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.xavier_uniform_(m.weight)

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        # build laterals
        laterals = [lateral_conv(inputs[i + self.start_level]) for i, lateral_conv in enumerate(self.lateral_convs)]
        # build top-down path
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], size=prev_shape, mode='nearest')
        # build outputs
        outs = [self.fpn_convs[i](laterals[i]) for i in range(used_backbone_levels)]
        return tuple(outs)


class Conv2d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, NL='relu', same_padding=False, bn=True, bias=True):
        super(Conv2d, self).__init__()
        padding = int((kernel_size - 1) // 2) if same_padding else 0
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding=padding, bias=bias)
        self.bn = nn.BatchNorm2d(out_channels) if bn else None
        if NL == 'relu':
            self.relu = nn.ReLU(inplace=False)
        elif NL == 'prelu':
            self.relu = nn.PReLU()
        else:
            self.relu = None

    def forward(self, x):
        x = self.conv(x)
        if self.bn is not None:
            x = self.bn(x)
        if self.relu is not None:
            x = self.relu(x)
        return x
# %%
# a small stand-in for the Swin backbone: three feature levels at strides 4, 8, 16
backbone = nn.ModuleList([nn.Conv2d(3, 8, 3, 4, 1), nn.Conv2d(8, 16, 3, 2, 1), nn.Conv2d(16, 32, 3, 2, 1)])
neck = FPN([8, 16, 32], 8, 3)
head = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
params = list(backbone.parameters()) + list(neck.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(params, lr=1e-4)
images = torch.rand(2, 3, 64, 64)
gt_density = torch.rand(2, 1, 16, 16)
# %%
for step in range(2):
    feats, x = [], images
    for stage in backbone:
        x = F.relu(stage(x))
        feats.append(x)
    outs = neck(feats)
    pred_density = head(outs[0])
    loss = F.mse_loss(pred_density, gt_density)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
