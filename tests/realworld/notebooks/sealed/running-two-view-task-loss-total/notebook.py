# source: https://github.com/davda54/sam/issues/10 (variant: two augmented views trained with plain SGD instead of the two SAM passes; the same per-task running loss carried from the first view into the second)
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 2 line 4
# expert: the second view's task losses are added to the total that view 1 already backpropagated, so the second backward re-enters the freed view-1 graph; start a fresh total (loss = 0) for the second view
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
num_tasks = 3
model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, num_tasks))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
image = torch.randn(16, 1, 8, 8)
target = torch.randint(0, 2, (16, num_tasks)).float()

def augment(x):
    return x + 0.1 * torch.randn_like(x)

def task_loss(output, target, t):
    return F.binary_cross_entropy_with_logits(output[:, t], target[:, t])
# %%
# view 1
output = model(augment(image))
loss = 0
for t in range(num_tasks):
    loss += task_loss(output, target, t)
optimizer.zero_grad()
loss.backward()
optimizer.step()
# %%
# view 2
output = model(augment(image))
for t in range(num_tasks):
    loss += task_loss(output, target, t)
# %%
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
