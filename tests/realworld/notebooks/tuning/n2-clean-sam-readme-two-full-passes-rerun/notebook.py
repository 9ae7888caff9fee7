# source: https://github.com/davda54/sam/blob/main/README.md
# scenario: clean
# order: 0 1 2 2
# expert: none needed: both SAM passes do a full forward pass, so each backward has its own graph and the training cell can be re-run
# %%
import torch
import torch.nn as nn
from sam import SAM
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
loss_function = nn.CrossEntropyLoss()
data = [(torch.randn(16, 10), torch.randint(0, 3, (16,))) for _ in range(4)]
# %%
base_optimizer = torch.optim.SGD  # define an optimizer for the "sharpness-aware" update
optimizer = SAM(model.parameters(), base_optimizer, lr=0.1, momentum=0.9)
# %%
for input, output in data:
    # first forward-backward pass
    loss = loss_function(model(input), output)  # use this loss for any training statistics
    loss.backward()
    optimizer.first_step(zero_grad=True)

    # second forward-backward pass
    loss_function(model(input), output).backward()  # make sure to do a full forward pass
    optimizer.second_step(zero_grad=True)
print(loss.item())
