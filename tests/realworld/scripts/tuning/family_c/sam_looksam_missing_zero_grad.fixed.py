# source: https://github.com/rollovd/LookSAM/issues/3
# style: sam
# cause: grads_not_zeroed
# line: 39
# expert: zero the gradients (self.zero_grad()) after perturbing the weights and before the second (sharpness) backward, so g_s is not added on top of the first gradient
import torch
import torch.nn as nn

torch.manual_seed(0)


class LookSAM(torch.optim.Optimizer):
    def __init__(self, k, alpha, model, base_optimizer, criterion, rho=0.05, **kwargs):
        defaults = dict(alpha=alpha, rho=rho, **kwargs)
        self.model = model
        super().__init__(self.model.parameters(), defaults)
        self.k = k
        self.alpha = torch.tensor(alpha, requires_grad=False)
        self.criterion = criterion
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @staticmethod
    def normalized(g):
        return g / g.norm(p=2)

    def step(self, t, samples, targets, zero_sam_grad=True, zero_grad=False):
        if not t % self.k:
            group = self.param_groups[0]
            scale = group["rho"] / (self._grad_norm() + 1e-8)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                self.state[p]["old_grad_p"] = p.grad.clone()
                with torch.no_grad():
                    e_w = p.grad * scale.to(p)
                    p.add_(e_w)
            if zero_sam_grad:
                self.zero_grad()
            self.criterion(self.model(samples), targets).backward()

        group = self.param_groups[0]
        for p in group["params"]:
            if p.grad is None:
                continue
            if not t % self.k:
                old_grad_p = self.state[p]["old_grad_p"]
                g_grad_norm = self.normalized(old_grad_p)
                g_s_grad_norm = self.normalized(p.grad)
                self.state[p]["gv"] = torch.sub(p.grad, p.grad.norm(p=2) * torch.sum(g_grad_norm * g_s_grad_norm) * g_grad_norm)
            else:
                with torch.no_grad():
                    gv = self.state[p]["gv"]
                    p.grad.add_(self.alpha.to(p) * (p.grad.norm(p=2) / (gv.norm(p=2) + 1e-8) * gv))
            p.data = self.state[p]["old_p"] if not t % self.k else p.data

        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(p=2) for group in self.param_groups for p in group["params"] if p.grad is not None]), p=2)


model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
criterion = nn.CrossEntropyLoss()
optimizer = LookSAM(k=2, alpha=0.7, model=model, base_optimizer=torch.optim.SGD, criterion=criterion, rho=0.1, lr=0.1)
train_loader = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(6)]

for t, (samples, targets) in enumerate(train_loader):
    loss = criterion(model(samples), targets)
    loss.backward()
    grad_norm_before = optimizer._grad_norm().item()
    optimizer.step(t, samples, targets, zero_sam_grad=True, zero_grad=False)
    used = optimizer._grad_norm().item()
    optimizer.zero_grad()
    print(f"t={t} loss {loss.item():.4f} |g| {grad_norm_before:.4f} |grad used for the update| {used:.4f}")
