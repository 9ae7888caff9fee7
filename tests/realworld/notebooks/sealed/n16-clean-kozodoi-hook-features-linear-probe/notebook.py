# source: https://kozodoi.me/blog/20210527/extracting-features
# scenario: clean
# expert: none needed: the forward hook stores output.detach() in the features dict and the predictions are kept as detached numpy arrays, so the activations collected in one cell carry no graph and can be reused as inputs of a new model in a later cell for as many epochs as wanted (the last cell, a small linear probe on the stored features, is added to the post's extraction code)
# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)
np.random.seed(0)
device = torch.device('cpu')

# small stand-in for the timm resnet used in the post (it also ends with a global_pool and an fc)
class Net(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.global_pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.fc(self.global_pool(self.conv(x)))

model = Net().to(device)
dataloader = [torch.randn(4, 3, 16, 16) for _ in range(12)]
labels = torch.randint(0, 5, (12 * 4,))
# %%
##### HELPER FUNCTION FOR FEATURE EXTRACTION

def get_features(name):
    def hook(model, input, output):
        features[name] = output.detach()
    return hook

##### REGISTER HOOK

model.global_pool.register_forward_hook(get_features('feats'))
# %%
##### FEATURE EXTRACTION LOOP

# placeholders
PREDS = []
FEATS = []

# placeholder for batch features
features = {}

# loop through batches
for idx, inputs in enumerate(dataloader):

    # move to device
    inputs = inputs.to(device)

    # forward pass [with feature extraction]
    preds = model(inputs)

    # add feats and preds to lists
    PREDS.append(preds.detach().cpu().numpy())
    FEATS.append(features['feats'].cpu().numpy())

    # early stop
    if idx == 9:
        break
# %%
PREDS = np.concatenate(PREDS)
FEATS = np.concatenate(FEATS)

print('- preds shape:', PREDS.shape)
print('- feats shape:', FEATS.shape)
# %%
# reuse the stored features: fit a linear probe on them for a few epochs
probe = nn.Linear(FEATS.shape[1], 5)
probe_opt = torch.optim.SGD(probe.parameters(), lr=0.1)
X = torch.from_numpy(FEATS)
Y = labels[:len(FEATS)]
for epoch in range(5):
    probe_opt.zero_grad()
    probe_loss = nn.functional.cross_entropy(probe(X), Y)
    probe_loss.backward()
    probe_opt.step()
    print(epoch, probe_loss.item())
