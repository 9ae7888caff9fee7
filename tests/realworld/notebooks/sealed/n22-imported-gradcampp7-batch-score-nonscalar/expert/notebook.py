# source: https://github.com/1Konny/gradcam_plus_plus-pytorch/issues/7
# %%
import torch
import torch.nn as nn
from gradcam import GradCAM
torch.manual_seed(0)

class TinyResNet(nn.Module):
    # stand-in for torchvision.models.resnet18: same attribute names, far fewer channels
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU()
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.layer4 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.layer4(self.layer1(self.relu(self.conv1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))

resnet = TinyResNet()
resnet.eval()
# %%
model_dict = dict(type='resnet', arch=resnet, layer_name='layer4', input_size=(32, 32))
gradcam = GradCAM(model_dict)
inputs = torch.randn(4, 3, 32, 32)  # a batch of normalized images
# %%
masks = [gradcam(img.unsqueeze(0))[0] for img in inputs]  # GradCAM takes one (1, 3, H, W) image at a time
mask = torch.cat(masks)
print(mask.shape)
