# source: variant of https://web.stanford.edu/~nanbhas/blog/forward-hooks-pytorch/
# scenario: clean
# order: 0 1 2 3 4 5 5
# expert: correct as written: the forward hook stores output.detach() in the features dict and the extraction loop keeps numpy copies (FEATS, PREDS), so the stored activations carry no graph; the linear probe trained on them builds a fresh graph each step from its own parameters, and re-running the probe cell only continues training.
# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)
np.random.seed(0)
# %%
# a small ResNet-shaped network with random weights instead of the blog's pretrained resnet18
model = nn.Sequential()
model.add_module('conv1', nn.Conv2d(3, 8, 3, padding=1))
model.add_module('relu', nn.ReLU())
model.add_module('layer1', nn.Conv2d(8, 8, 3, padding=1))
model.add_module('avgpool', nn.AdaptiveAvgPool2d(1))
model.add_module('flatten', nn.Flatten())
model.add_module('fc', nn.Linear(8, 10))
model.eval()
dataloader = [torch.rand(4, 3, 16, 16) for _ in range(4)]
labels = [torch.randint(0, 2, (4,)) for _ in range(4)]
# %%
# placeholders
PREDS = []
FEATS = []

# placeholder for batch features
features = {}

def get_features(name):
    def hook(model, input, output):
        features[name] = output.detach()
    return hook

##### REGISTER HOOK
model.avgpool.register_forward_hook(get_features('feats'))
# %%
# loop through batches
for idx, inputs in enumerate(dataloader):
    # forward pass [with feature extraction]
    preds = model(inputs)

    # add feats and preds to lists
    PREDS.append(preds.detach().cpu().numpy())
    FEATS.append(features['feats'].cpu().numpy())

PREDS = np.concatenate(PREDS)
FEATS = np.concatenate(FEATS).reshape(len(PREDS), -1)
print('- preds shape:', PREDS.shape)
print('- feats shape:', FEATS.shape)
# %%
# a linear probe on the stored features
probe = nn.Linear(FEATS.shape[1], 2)
probe_opt = torch.optim.SGD(probe.parameters(), lr=0.5)
X = torch.from_numpy(FEATS)
y = torch.cat(labels)
# %%
for step in range(20):
    probe_opt.zero_grad()
    loss = nn.functional.cross_entropy(probe(X), y)
    loss.backward()
    probe_opt.step()
print(loss.item())
