# source: https://github.com/1Konny/gradcam_plus_plus-pytorch/issues/7 (the reporter calls `mask, _ = gradcam(inputs)` on a batch of images; GradCAM of gradcam.py at 07fd6ec kept next to the notebook, cut down to the resnet branch, with register_full_backward_hook and F.interpolate for the current PyTorch, and a tiny ResNet-shaped model with random weights instead of the pretrained torchvision resnet)
# scenario: imported_module
# cause: non_scalar_backward
# root: file gradcam.py line 50
# expert: GradCAM.forward is written for one image, input of shape (1, 3, H, W) as its docstring says: with a batch, logit[:, logit.max(1)[-1]].squeeze() is a matrix of scores, not a scalar, so score.backward() has no implicit gradient; compute the saliency maps one image at a time (gradcam(img.unsqueeze(0)) for each image) instead of passing the whole batch
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
mask, _ = gradcam(inputs)
print(mask.shape)
