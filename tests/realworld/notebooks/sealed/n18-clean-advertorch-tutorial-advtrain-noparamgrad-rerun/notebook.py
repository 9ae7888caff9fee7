# source: variant of https://github.com/BorealisAI/advertorch/blob/master/advertorch_examples/tutorial_train_mnist.py
# scenario: clean
# order: 0 1 2 3 2 3
# expert: correct as written (the tutorial's --mode adv path split into cells): the PGD attack runs under ctx_noparamgrad_and_eval, which only freezes the parameters' requires_grad and restores it on exit, not under torch.no_grad(), so the attack still gets gradients w.r.t. the input; torch.no_grad() wraps only the evaluation forward passes, and losses are logged with .item(). Re-running the training cell after the test cell works.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

from advertorch_stub import ctx_noparamgrad_and_eval, LinfPGDAttack
torch.manual_seed(0)
# %%
# a small LeNet5-like network and random 1x12x12 images instead of MNIST
class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 6 * 6, 10)

    def forward(self, x):
        return self.fc(F.max_pool2d(F.relu(self.conv1(x)), 2).flatten(1))

device = torch.device("cpu")
train_loader = [(torch.rand(8, 1, 12, 12), torch.randint(0, 10, (8,))) for _ in range(3)]
test_loader = [(torch.rand(8, 1, 12, 12), torch.randint(0, 10, (8,))) for _ in range(2)]
model = LeNet5()
model.to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-4)
adversary = LinfPGDAttack(
    model, loss_fn=nn.CrossEntropyLoss(reduction="sum"), eps=0.3,
    nb_iter=5, eps_iter=0.01, rand_init=True, clip_min=0.0,
    clip_max=1.0, targeted=False)
flag_advtrain = True
# %%
model.train()
for batch_idx, (data, target) in enumerate(train_loader):
    data, target = data.to(device), target.to(device)
    ori = data
    if flag_advtrain:
        # when performing attack, the model needs to be in eval mode
        # also the parameters should NOT be accumulating gradients
        with ctx_noparamgrad_and_eval(model):
            data = adversary.perturb(data, target)

    optimizer.zero_grad()
    output = model(data)
    loss = F.cross_entropy(output, target, reduction='mean')
    loss.backward()
    optimizer.step()
    print('Train [{}]\tLoss: {:.6f}'.format(batch_idx, loss.item()))
# %%
model.eval()
test_clnloss = 0
clncorrect = 0
test_advloss = 0
advcorrect = 0

for clndata, target in test_loader:
    clndata, target = clndata.to(device), target.to(device)
    with torch.no_grad():
        output = model(clndata)
    test_clnloss += F.cross_entropy(output, target, reduction='sum').item()
    pred = output.max(1, keepdim=True)[1]
    clncorrect += pred.eq(target.view_as(pred)).sum().item()

    advdata = adversary.perturb(clndata, target)
    with torch.no_grad():
        output = model(advdata)
    test_advloss += F.cross_entropy(output, target, reduction='sum').item()
    pred = output.max(1, keepdim=True)[1]
    advcorrect += pred.eq(target.view_as(pred)).sum().item()

print('cln loss: {:.4f}, cln acc: {}, adv loss: {:.4f}, adv acc: {}'.format(
    test_clnloss, clncorrect, test_advloss, advcorrect))
