# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from bifpn import BIFPN
torch.manual_seed(0)
# %%
class EfficientDet(nn.Module):
    def __init__(self, num_classes=2):
        super().__init__()
        # tiny stand-in for the EfficientNet backbone: three levels, strides 2, 4, 8
        self.stage1 = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.stage3 = nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.neck = BIFPN(in_channels=[8, 16, 32], out_channels=16, stack=1, num_outs=3)
        self.head = nn.Conv2d(16, num_classes, 3, 1, 1)

    def forward(self, inputs):
        c3 = self.stage1(inputs)
        c4 = self.stage2(c3)
        c5 = self.stage3(c4)
        x = self.neck([c3, c4, c5])
        return [self.head(feature) for feature in x]

model = EfficientDet(num_classes=2)
# %%
images = torch.rand(4, 3, 32, 32)
targets = [torch.rand(4, 2, 16, 16), torch.rand(4, 2, 8, 8), torch.rand(4, 2, 4, 4)]
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
# %%
model.train()
for iteration in range(3):
    optimizer.zero_grad()
    outputs = model(images)
    loss = sum(F.binary_cross_entropy_with_logits(o, t) for o, t in zip(outputs, targets))
    loss.backward()
    optimizer.step()
    print(iteration, loss.item())
