# source: https://github.com/davda54/sam/issues/7
# style: sam
# expert: correct SAM with mixed precision: each of the two steps has its own autocast forward pass (preds_first, preds_second) and its own backward; nothing from the first pass is reused in the second
import torch
import torch.nn as nn

torch.manual_seed(0)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super(SAM, self).__init__(params, defaults)
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
                e_w = p.grad * scale.to(p)
                p.add_(e_w)
                self.state[p]["e_w"] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(p=2) for group in self.param_groups for p in group["params"] if p.grad is not None]), p=2)


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))
criterion = nn.CrossEntropyLoss(reduction='none')
optimizer = SAM(model.parameters(), torch.optim.SGD, rho=0.05, lr=0.05, momentum=0.9)
train_loader = [(torch.randn(8, 3, 8, 8), torch.randint(0, 5, (8,))) for _ in range(4)]

for epoch in range(2):
    for images, labels in train_loader:
        # first forward-backward pass
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            preds_first = model(images)
            loss = criterion(preds_first.float(), labels)  # use this loss for any training statistics
        loss.mean().backward()
        optimizer.first_step(zero_grad=True)
        # second forward-backward pass
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            preds_second = model(images)
            loss_second = criterion(preds_second.float(), labels)
        loss_second.mean().backward()
        optimizer.second_step(zero_grad=True)
        print(f"epoch {epoch} loss {loss.mean().item():.4f}")
