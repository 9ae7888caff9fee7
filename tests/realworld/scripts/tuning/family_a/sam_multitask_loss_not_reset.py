# source: https://github.com/davda54/sam/issues/10
# style: sam
# cause: accumulated_loss_backward_in_loop
# line: 98
# expert: start a fresh loss sum (loss = 0) for the second SAM forward pass instead of adding the new task losses to the first pass's loss
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, adaptive=False, **kwargs):
        defaults = dict(rho=rho, adaptive=adaptive, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                e_w = (torch.pow(p, 2) if group["adaptive"] else 1.0) * p.grad * scale.to(p)
                p.add_(e_w)
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    def _grad_norm(self):
        norms = [
            ((torch.abs(p) if group["adaptive"] else 1.0) * p.grad).norm(p=2)
            for group in self.param_groups
            for p in group["params"]
            if p.grad is not None
        ]
        return torch.norm(torch.stack(norms), p=2)

class MultiTaskNet(nn.Module):
    """Shared backbone with one binary head per finding (CheXpert-style)."""

    def __init__(self, num_tasks):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.heads = nn.ModuleList([nn.Linear(8 * 16, 1) for _ in range(num_tasks)])

    def forward(self, image):
        feat = self.backbone(image)
        logit_map = feat.view(feat.size(0), 8, 4, 4)
        return [head(feat) for head in self.heads], logit_map


def get_loss(output, target, t):
    loss_t = F.binary_cross_entropy_with_logits(output[t].view(-1), target[:, t])
    acc_t = ((output[t].view(-1) > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t


num_tasks = 5
model = MultiTaskNet(num_tasks)
optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.05, momentum=0.9)
loss_sum = [0.0] * num_tasks
acc_sum = [0.0] * num_tasks
dataloader = [(torch.randn(8, 1, 16, 16), (torch.rand(8, num_tasks) > 0.5).float()) for _ in range(3)]

for step, (image, target) in enumerate(dataloader):
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
    output, logit_map = model(image)

    for t in range(num_tasks):
        loss_t, acc_t = get_loss(output, target, t)
        loss += loss_t
        loss_sum[t] += loss_t.item()
        acc_sum[t] += acc_t.item()
    loss.backward()
    optimizer.second_step(zero_grad=True)
    print(f"step {step} loss {loss.item():.4f}")
