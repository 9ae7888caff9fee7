# source: https://github.com/kozistr/pytorch_optimizer/issues/66
# style: sam
# cause: inplace_modified_saved_tensor
# line: 91
# expert: the second SAM pass must run a new forward at the perturbed weights (loss = criterion(models(inputs)...); loss.backward()) instead of backpropagating the retained first graph whose weights first_step changed in place
import torch
import torch.nn as nn

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

class ResNetLike(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.embed = nn.Linear(32, 16)
        self.linear = nn.Linear(16, num_classes)

    def forward(self, x):
        feat = self.features(x)
        emb = torch.relu(self.embed(feat))
        return self.linear(emb), emb, [feat]


models = ResNetLike()
criterion = nn.CrossEntropyLoss(reduction="none")
optimizers = SAM(models.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9, weight_decay=5e-4)
dataloaders = {"train": [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]}
iters = 0


def train_epoch(models, criterion, optimizers, dataloaders):
    global iters
    models.train()
    for data in dataloaders["train"]:
        inputs = data[0]
        labels = data[1]
        iters += 1
        optimizers.zero_grad()
        scores, _, features = models(inputs)

        target_loss = criterion(scores, labels)
        m_backbone_loss = torch.sum(target_loss) / target_loss.size(0)
        loss = m_backbone_loss
        # -----------------SAM Optimizer -------------------
        # first forward-backward pass
        loss.backward(retain_graph=True)
        optimizers.first_step(zero_grad=True)
        # second forward-backward pass
        loss.backward()
        optimizers.second_step(zero_grad=True)
        print(f"iter {iters} loss {loss.item():.4f}")


train_epoch(models, criterion, optimizers, dataloaders)
