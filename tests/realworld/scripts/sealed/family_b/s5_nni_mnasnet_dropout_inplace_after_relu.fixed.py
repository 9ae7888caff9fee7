# source: https://github.com/microsoft/nni/pull/4614
# style: nas
# cause: inplace_modified_saved_tensor
# line: 116
# expert: the MNASNet search-space classifier used nn.Dropout(p=dropout, inplace=True) right after F.relu, overwriting the ReLU output that ReluBackward saved; the PR (fix for issue #4592) drops inplace=True and uses nn.Dropout(p=dropout)
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

BN_MOMENTUM = 1 - 0.9997
_BN_MOMENTUM = 1 - 0.9997


class RegularConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.skip = skip
        self.conv = nn.Conv2d(in_ch, out_ch, kernel_size, padding=kernel_size // 2, stride=stride, bias=False)
        self.relu = nn.ReLU(inplace=True)
        self.bn = nn.BatchNorm2d(out_ch, momentum=BN_MOMENTUM)

    def forward(self, x):
        out = self.bn(self.relu(self.conv(x)))
        if self.skip == 'identity':
            out = out + x
        return out


class DepthwiseConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.skip = skip
        self.conv1 = nn.Conv2d(in_ch, in_ch, kernel_size, padding=kernel_size // 2, stride=stride, groups=in_ch, bias=False)
        self.bn1 = nn.BatchNorm2d(in_ch, momentum=BN_MOMENTUM)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(in_ch, out_ch, 1, padding=0, stride=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch, momentum=BN_MOMENTUM)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.skip == 'identity':
            out = out + x
        return out


class MobileConv(nn.Module):
    def __init__(self, kernel_size, in_ch, out_ch, skip, exp_ratio, stride):
        super().__init__()
        self.skip = skip
        mid_ch = in_ch * exp_ratio
        self.layers = nn.Sequential(
            nn.Conv2d(in_ch, mid_ch, 1, bias=False),
            nn.BatchNorm2d(mid_ch, momentum=BN_MOMENTUM),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, mid_ch, kernel_size, padding=(kernel_size - 1) // 2,
                      stride=stride, groups=mid_ch, bias=False),
            nn.BatchNorm2d(mid_ch, momentum=BN_MOMENTUM),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, out_ch, 1, bias=False),
            nn.BatchNorm2d(out_ch, momentum=BN_MOMENTUM))

    def forward(self, x):
        out = self.layers(x)
        if self.skip == 'identity':
            out = out + x
        return out


OP_TYPES = {'RegularConv': RegularConv, 'DepthwiseConv': DepthwiseConv, 'MobileConv': MobileConv}


def sample_block(mutable, in_ch):
    """What the multi-trial mutator does to each Placeholder: pick one candidate op."""
    op = OP_TYPES[random.choice(mutable['op_type_options'])]
    ks = random.choice(mutable['kernel_size_options'])
    out_ch = random.choice(mutable['n_filter_options'])
    skip = random.choice(mutable['skip_options']) if in_ch == out_ch and mutable['stride'] == 1 else 'no'
    return op(ks, in_ch, out_ch, skip, mutable['exp_ratio'], mutable['stride']), out_ch


class MNASNet(nn.Module):
    def __init__(self, alpha, num_classes=10, dropout=0.2, width=8):
        super().__init__()
        self.alpha = alpha
        base_filter_sizes = [16, 24]
        exp_ratios = [3, 3]
        strides = [1, 2]
        layers = [
            nn.Conv2d(3, width, 3, padding=1, stride=2, bias=False),
            nn.BatchNorm2d(width, momentum=_BN_MOMENTUM),
            nn.ReLU(inplace=True),
        ]
        in_ch = width
        for count, (filter_size, exp_ratio, stride) in enumerate(zip(base_filter_sizes, exp_ratios, strides)):
            mutable = {
                'kernel_size_options': [1, 3, 5],
                'op_type_options': ['RegularConv', 'DepthwiseConv', 'MobileConv'],
                'skip_options': ['identity', 'no'],
                'n_filter_options': [int(filter_size * x) for x in [0.75, 1.0, 1.25]],
                'exp_ratio': exp_ratio,
                'stride': stride,
            }
            block, in_ch = sample_block(mutable, in_ch)
            layers.append(block)
        layers += [
            nn.Conv2d(in_ch, 64, 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(64, momentum=_BN_MOMENTUM),
            nn.ReLU(inplace=True),
        ]
        self.layers = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout),
                                        nn.Linear(64, num_classes))

    def forward(self, x):
        x = self.layers(x)
        # Equivalent to global avgpool and removing H and W dimensions.
        x = x.mean([2, 3])
        x = F.relu(x)
        return self.classifier(x)


# a few trials of the multi-trial search: each sampled architecture is trained briefly
criterion = nn.CrossEntropyLoss()
for trial in range(2):
    model = MNASNet(1.0)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for step in range(2):
        data = torch.randn(4, 3, 16, 16)
        target = torch.randint(0, 10, (4,))
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
    print('trial', trial, 'loss', loss.item())
