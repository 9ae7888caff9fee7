# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from grad_cam import GradCAM
torch.manual_seed(0)
# %%
# inference setup
device = torch.device("cpu")

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
