# source: https://github.com/BorealisAI/advertorch/issues/79
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 4 line 6
# expert: test() wraps the whole evaluation loop, including adversary.perturb(inputs, targets), in `with torch.no_grad():`, so inside the PGD attack the model output on xvar + delta has no graph and perturb_iterative's loss.backward() fails; the maintainer's answer is that gradient-based attacks need autograd, so remove `with torch.no_grad()` around the attack (the reporter confirmed that fixed it).
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from advertorch_stub import LinfPGDAttack
torch.manual_seed(0)
# %%
# small LeNet-style classifier and random 1x12x12 "images" instead of the reporter's network and data
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 6 * 6, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        return self.fc(x.flatten(1))

net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
trainloader = [(torch.rand(8, 1, 12, 12), torch.randint(0, 10, (8,))) for _ in range(3)]
testloader = [(torch.rand(8, 1, 12, 12), torch.randint(0, 10, (8,))) for _ in range(2)]
# %%
adversary = LinfPGDAttack(
    net, loss_fn=nn.CrossEntropyLoss(reduction="sum"), eps=0.3,
    nb_iter=5, eps_iter=0.01, rand_init=True, clip_min=0.0, clip_max=1.0,
    targeted=False)
# %%
def train(epoch):
    net.train()
    train_loss, correct, total = 0, 0, 0
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        adv_untargeted = adversary.perturb(inputs, targets)
        optimizer.zero_grad()
        outputs = net(adv_untargeted)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        correct += outputs.max(1)[1].eq(targets).sum().item()
        total += targets.size(0)
    print('train', epoch, train_loss / len(trainloader), correct / total)
# %%
def test(epoch):
    net.eval()
    test_loss = 0
    correct = 0
    total = 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(testloader):
            adv_untargeted = adversary.perturb(inputs, targets)
            inputs = adv_untargeted

            outputs = net(inputs)
            loss = criterion(outputs, targets)
            test_loss += loss.item()
            _, predicted = outputs.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()
    print('test', epoch, test_loss / len(testloader), correct / total)
# %%
for epoch in range(2):
    train(epoch)
    test(epoch)
