# source: variant of https://github.com/kazuto1011/grad-cam-pytorch/issues/33 (Grad-CAM used in an inference notebook: the setup cell disables autograd globally with torch.set_grad_enabled(False), as inference code and this repository's occlusion_sensitivity do; GradCAM from the repository's grad_cam.py next to the notebook, a small ResNet-shaped classifier with random weights and random images instead of a fine-tuned torchvision resnet152)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 3
# expert: the inference setup cell turned autograd off for the whole kernel (torch.set_grad_enabled(False)), so the logits that GradCAM.forward keeps have no grad_fn and gcam.backward() fails in the Grad-CAM cell; as the maintainer answered, model.eval() is all inference needs and Grad-CAM must run with gradients enabled: drop the torch.set_grad_enabled(False) line (or re-enable it before Grad-CAM)
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from grad_cam import GradCAM
torch.manual_seed(0)
# %%
# inference setup
device = torch.device("cpu")
torch.set_grad_enabled(False)

class TinyResNet(nn.Module):  # stands in for models.resnet152 with fc = nn.Linear(2048, 23)
    def __init__(self, num_classes=23):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.ReLU())
        self.layer1 = nn.Sequential(nn.Conv2d(8, 8, 3, 1, 1), nn.ReLU())
        self.layer4 = nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.layer4(self.layer1(self.conv1(x)))
        return self.fc(torch.flatten(self.avgpool(x), 1))

model = TinyResNet(num_classes=23)
model.to(device)
model.eval()
images = torch.rand(2, 3, 32, 32).to(device)
# %%
with torch.no_grad():
    print(model(images).argmax(1))
# %%
target_layer = "layer4"
gcam = GradCAM(model=model, candidate_layers=[target_layer])
probs, ids = gcam.forward(images)
print(ids[:, :3])
# %%
topk = 3
for i in range(topk):
    # Grad-CAM
    gcam.backward(ids=ids[:, [i]])
    regions = gcam.generate(target_layer=target_layer)
    for j in range(len(images)):
        print("\t#{}: class {} ({:.5f})".format(j, ids[j, i].item(), probs[j, i].item()), regions[j].shape)
