# source: https://github.com/pytorch/vision/blob/main/torchvision/models/resnet.py
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: torchvision's BasicBlock adds the identity in place (out += identity) to the output of bn2, which BatchNorm's backward does not need, and only then applies ReLU(inplace=True); the in-place ops are safe and the step cell can be run again
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
# %%
def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)

class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super(BasicBlock, self).__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        out = self.relu(out)
        return out
# %%
model = nn.Sequential(conv3x3(3, 8), BasicBlock(8, 8), BasicBlock(8, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
images = torch.randn(4, 3, 8, 8)
target = torch.tensor([1, 0, 3, 7])
# %%
output = model(images)
loss = criterion(output, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
