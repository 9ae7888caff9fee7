# source: variant of https://github.com/AggMan96/RK-Net/issues/9 (USAM, ClassBlock and ft_net from model.py, with a tiny ResNet-shaped backbone instead of the pretrained torchvision resnet50 and random images)
# style: vision
# cause: inplace_modified_saved_tensor
# line: 42
# expert: In USAM the attention map att is the output of ReLU, which ReLU saves for its backward; the `polish` branch then zeroes its border rows/columns in place (att[:, :, :, 0] = 0 ...), so backward finds the saved tensor at a newer version. The fix proposed in the issue: make a copy first, att = att.clone(), under `if self.polish:` before the slice assignments.
import torch
import torch.nn as nn
from torch.nn import init
from torch.nn import functional as F

torch.manual_seed(0)


######################################################################
class USAM(nn.Module):
    def __init__(self, kernel_size=3, padding=1, polish=True):
        super(USAM, self).__init__()

        kernel = torch.ones((kernel_size, kernel_size))
        kernel = kernel.unsqueeze(0).unsqueeze(0)
        self.weight = nn.Parameter(data=kernel, requires_grad=False)

        kernel2 = torch.ones((1, 1)) * (kernel_size * kernel_size)
        kernel2 = kernel2.unsqueeze(0).unsqueeze(0)
        self.weight2 = nn.Parameter(data=kernel2, requires_grad=False)

        self.polish = polish
        self.pad = padding
        self.relu = nn.ReLU()
        self.bn = nn.BatchNorm2d(1)

    def __call__(self, x):
        fmap = x.sum(1, keepdim=True)
        x1 = F.conv2d(fmap, self.weight, padding=self.pad)
        x2 = F.conv2d(fmap, self.weight2, padding=0)

        att = x2 - x1
        att = self.bn(att)
        att = self.relu(att)

        if self.polish:
            att = att.clone()
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0

        output = x + att * x

        return output


def weights_init_kaiming(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        init.kaiming_normal_(m.weight.data, a=0, mode='fan_in')
    elif classname.find('Linear') != -1:
        init.kaiming_normal_(m.weight.data, a=0, mode='fan_out')
        init.constant_(m.bias.data, 0.0)
    elif classname.find('BatchNorm1d') != -1:
        init.normal_(m.weight.data, 1.0, 0.02)
        init.constant_(m.bias.data, 0.0)


def weights_init_classifier(m):
    classname = m.__class__.__name__
    if classname.find('Linear') != -1:
        init.normal_(m.weight.data, std=0.001)
        init.constant_(m.bias.data, 0.0)


class ClassBlock(nn.Module):
    def __init__(self, input_dim, class_num, droprate, relu=False, bnorm=True, num_bottleneck=512, linear=True, return_f=False):
        super(ClassBlock, self).__init__()
        self.return_f = return_f
        add_block = []
        if linear:
            add_block += [nn.Linear(input_dim, num_bottleneck)]
        else:
            num_bottleneck = input_dim
        if bnorm:
            add_block += [nn.BatchNorm1d(num_bottleneck)]
        if relu:
            add_block += [nn.LeakyReLU(0.1)]
        if droprate > 0:
            add_block += [nn.Dropout(p=droprate)]
        add_block = nn.Sequential(*add_block)
        add_block.apply(weights_init_kaiming)

        classifier = []
        classifier += [nn.Linear(num_bottleneck, class_num)]
        classifier = nn.Sequential(*classifier)
        classifier.apply(weights_init_classifier)

        self.add_block = add_block
        self.classifier = classifier

    def forward(self, x):
        x = self.add_block(x)
        x = self.classifier(x)
        return x


class TinyResNet(nn.Module):
    """Shape-compatible stand-in for torchvision's resnet50 trunk."""

    def __init__(self, width=8):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = nn.Sequential(nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(width, 2 * width, 3, stride=2, padding=1), nn.ReLU())
        self.layer3 = nn.Sequential(nn.Conv2d(2 * width, 2 * width, 3, padding=1), nn.ReLU())
        self.layer4 = nn.Sequential(nn.Conv2d(2 * width, 4 * width, 3, padding=1), nn.ReLU())


class ft_net(nn.Module):

    def __init__(self, class_num, droprate=0.5, stride=2, init_model=None, pool='avg'):
        super(ft_net, self).__init__()
        model_ft = TinyResNet()
        self.pool = pool
        model_ft.avgpool2 = nn.AdaptiveAvgPool2d((1, 1))
        self.model = model_ft
        self.usam_1 = USAM()
        self.usam_2 = USAM()

    def forward(self, x):
        x = self.model.conv1(x)
        x = self.model.bn1(x)
        x = self.model.relu(x)
        x = self.usam_1(x)
        x = self.model.maxpool(x)
        x = self.model.layer1(x)
        x = self.usam_2(x)
        x = self.model.layer2(x)
        x = self.model.layer3(x)
        x = self.model.layer4(x)
        x = self.model.avgpool2(x)
        x = x.view(x.size(0), x.size(1))
        return x


class_num = 5
model = ft_net(class_num)
classifier = ClassBlock(32, class_num, droprate=0.5, num_bottleneck=64)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD([*model.parameters(), *classifier.parameters()], lr=0.01, momentum=0.9)

model.train()
classifier.train()
for step in range(2):
    inputs = torch.rand(4, 3, 64, 64)
    labels = torch.randint(0, class_num, (4,))
    optimizer.zero_grad()
    outputs = classifier(model(inputs))
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
