# source: https://github.com/osmr/imgclsmob/issues/13
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file xception.py line 20
# expert: in xception.py each DwsConvBlock starts with nn.ReLU(inplace=True), which overwrites the unit's input x after identity_conv (a Conv2d that saved x for its backward) has used it, so loss.backward() in the training cell fails; as the issue says, drop inplace=True (use nn.ReLU() / inplace=False)
# %%
import torch
import torch.nn as nn
from xception import Xception
torch.manual_seed(0)
# %%
model = Xception(in_channels=3, num_classes=10)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
images = torch.randn(8, 3, 32, 32)
target = torch.randint(0, 10, (8,))
# %%
model.train()
for epoch in range(2):
    output = model(images)
    loss = criterion(output, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
