# source: https://pytorch.org/tutorials/beginner/blitz/neural_networks_tutorial.html
# scenario: rerun
# cause: double_backward
# root: cell 3 line 5
# order: 0 1 2 3 4 5 5
# expert: the "Loss Function" cell builds output and loss once, and the "Backprop" cell only zeroes the grads and calls loss.backward(); re-running the Backprop cell (to look at conv1.bias.grad again) backpropagates the same, already freed graph; recompute output = net(input) and the loss in the cell that calls backward, as the tutorial's final optimizer cell does
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output


net = Net()
print(net)
# %%
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
# %%
net.zero_grad()
out.backward(torch.randn(1, 10))
# %%
output = net(input)
target = torch.randn(10)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
# %%
print(loss.grad_fn)  # MSELoss
print(loss.grad_fn.next_functions[0][0])  # Linear
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU
# %%
net.zero_grad()     # zeroes the gradient buffers of all parameters

print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)

loss.backward()

print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)
