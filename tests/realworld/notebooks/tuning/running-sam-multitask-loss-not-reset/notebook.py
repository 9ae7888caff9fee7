# source: https://github.com/davda54/sam/issues/10
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 3 line 6
# expert: the per-task losses of the second SAM pass are added onto the running total of the first pass, whose graph was already backpropagated, so the second backward walks into it; restart the total (loss = 0) before accumulating the second pass
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = torch.norm(torch.stack([p.grad.norm(2) for g in self.param_groups
                                            for p in g['params'] if p.grad is not None]), 2)
        for group in self.param_groups:
            scale = group['rho'] / (grad_norm + 1e-12)
            for p in group['params']:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)                    # climb to the local worst point
                self.state[p]['e_w'] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group['params']:
                if 'e_w' in self.state[p]:
                    p.sub_(self.state[p]['e_w'])   # back to the original weights
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()
# %%
num_tasks = 3

class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.head = nn.Linear(4 * 4 * 4, num_tasks)

    def forward(self, x):
        logit_map = self.body(x)
        return self.head(logit_map.flatten(1)), logit_map

def get_loss(output, target, t):
    loss_t = F.binary_cross_entropy_with_logits(output[:, t], target[:, t])
    acc_t = ((output[:, t] > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t

model = MultiTaskNet()
optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)
image = torch.randn(8, 1, 8, 8)
target = torch.randint(0, 2, (8, num_tasks)).float()
loss_sum = [0.0] * num_tasks
acc_sum = [0.0] * num_tasks
# %%
# first forward-backward pass
output, logit_map = model(image)

loss = 0
for t in range(num_tasks):
    loss_t, acc_t = get_loss(output, target, t)
    loss += loss_t
    loss_sum[t] += loss_t.item()
    acc_sum[t] += acc_t.item()

optimizer.zero_grad()
loss.backward()
optimizer.first_step(zero_grad=True)
# %%
# second forward pass at the perturbed weights
output, logit_map = model(image)

for t in range(num_tasks):
    loss_t, acc_t = get_loss(output, target, t)
    loss += loss_t
    loss_sum[t] += loss_t.item()
    acc_sum[t] += acc_t.item()
# %%
loss.backward()
optimizer.second_step(zero_grad=True)
