# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

# small stand-in for torchvision's resnet18 (same attribute names: a backbone and a final fc)
class TinyResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        x = self.avgpool(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(x, 1))
# %%
# Load a pre-trained ResNet model
model = TinyResNet()
# Replace the final fully connected layer for a new task
num_ftrs = model.fc.in_features
model.fc = nn.Linear(num_ftrs, 10)  # Assuming 10 output classes
# %%
# Freeze all layers
for param in model.parameters():
    param.requires_grad = False
# Unfreeze the last layer
for param in model.fc.parameters():
    param.requires_grad = True
# %%
optimizer = torch.optim.SGD(model.fc.parameters(), lr=0.001)
for step in range(3):
    inputs = torch.randn(2, 3, 16, 16)
    outputs = model(inputs)
    loss = outputs.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
