# source: variant of https://androidkt.com/extract-intermediate-layer-output-from-pytorch-cnn-model/ (the post's MNIST Net and its activation dict filled by get_activation forward hooks; here the hook keeps output without .detach(), and the extracted fc1 activations are then used as regression targets for a small probe trained in a later cell; random 28x28 images instead of MNIST)
# scenario: stored_activations
# cause: computed_before_loop
# root: cell 1 line 4
# expert: The hook stores the fc1 output with its graph into model's parameters; the probe cell uses that stored activation as the regression target at every step, so each backward also runs through the Net forward made in the extraction cell, whose saved tensors the first step already freed; store activation[name] = output.detach() as the post does (or detach the target).
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return x

model = Net()
model.eval()
# %%
activation = {}
def get_activation(name):
    def hook(model, input, output):
        activation[name] = output
    return hook

model.fc1.register_forward_hook(get_activation('fc1'))
# %%
x = torch.randn(16, 1, 28, 28)
output = model(x)
print(activation['fc1'].shape)
# %%
# a linear probe from raw pixels to the fc1 features
probe = nn.Linear(28 * 28, 50)
optimizer = torch.optim.SGD(probe.parameters(), lr=0.01)
target = activation['fc1']
for step in range(5):
    optimizer.zero_grad()
    loss = F.mse_loss(probe(x.view(16, -1)), target)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
