# source: https://github.com/fastai/fastai/pull/761 (variant: a dict-based forward hook feeding an activation penalty in a classifier; the hook is removed and training is resumed in a later cell)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 4 line 2
# expert: after h.remove() the dict keeps the conv2 output of the last step of the earlier training run, and the resumed run adds a penalty on that stale activation whose graph is freed; register the hook again when setting up the second run (or clear/refresh the stored activation)
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))

model = Net()
images = torch.randn(32, 1, 16, 16)
labels = torch.randint(0, 3, (32,))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
# %%
activation = {}
def get_activation(name):
    def hook(model, input, output):
        activation[name] = output
    return hook

h = model.conv2.register_forward_hook(get_activation('conv2'))
# %%
def train(epochs):
    for epoch in range(epochs):
        for i in range(0, 32, 8):
            out = model(images[i:i + 8])
            loss = F.cross_entropy(out, labels[i:i + 8]) + 1e-3 * activation['conv2'].pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())

train(2)
# %%
h.remove()
# %%
# fine-tune with a smaller learning rate
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
# %%
train(2)
