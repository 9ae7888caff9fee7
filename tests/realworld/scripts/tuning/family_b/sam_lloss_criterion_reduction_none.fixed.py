# source: https://github.com/kozistr/pytorch_optimizer/issues/64
# style: sam
# cause: non_scalar_backward
# line: 115
# expert: the criterion uses reduction='none', so reduce the per-sample losses to a scalar (torch.sum(...) / batch size) before the SAM second backward
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

class Backbone(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.linear = nn.Linear(16, num_classes)

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        emb = f2.flatten(1)
        return self.linear(emb), emb, [f1, f2]


class LossNet(nn.Module):
    """Loss prediction module of 'Learning Loss for Active Learning'."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)
        self.out = nn.Linear(32, 1)

    def forward(self, features):
        a = torch.relu(self.fc1(features[0].mean(dim=(2, 3))))
        b = torch.relu(self.fc2(features[1].flatten(1)))
        return self.out(torch.cat([a, b], 1))


def LossPredLoss(input, target, margin=1.0):
    input = (input - input.flip(0))[: len(input) // 2]
    target = (target - target.flip(0))[: len(target) // 2].detach()
    one = 2 * torch.sign(torch.clamp(target, min=0)) - 1
    return torch.sum(torch.clamp(margin - one * input, min=0)) / input.size(0)


models = {"backbone": Backbone(), "module": LossNet()}
criterion = nn.CrossEntropyLoss(reduction="none")
optimizers = {
    "backbone": SAM(models["backbone"].parameters(), torch.optim.SGD, lr=0.1, momentum=0.9),
    "module": torch.optim.SGD(models["module"].parameters(), lr=0.1, momentum=0.9),
}
dataloaders = {"train": [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]}


def train_epoch(models, criterion, optimizers, dataloaders, epoch, epoch_loss, method="lloss"):
    models["backbone"].train()
    models["module"].train()
    for inputs, labels in dataloaders["train"]:
        optimizers["backbone"].zero_grad()
        optimizers["module"].zero_grad()

        scores, _, features = models["backbone"](inputs)
        target_loss = criterion(scores, labels)
        m_backbone_loss = torch.sum(target_loss) / target_loss.size(0)
        loss = m_backbone_loss

        # -----------------SAM Optimizer -------------------
        # first forward-backward pass
        loss.backward()
        optimizers["backbone"].first_step(zero_grad=True)
        # second forward-backward pass
        (torch.sum(criterion(models['backbone'](inputs)[0], labels)) / labels.size(0)).backward()
        optimizers["backbone"].second_step(zero_grad=True)

        if method == "lloss":
            if epoch > epoch_loss:
                features = [f.detach() for f in features]
            pred_loss = models["module"]([f.detach() for f in features]).view(-1)
            m_module_loss = LossPredLoss(pred_loss, target_loss.detach())
            m_module_loss.backward()
            optimizers["module"].step()
        print(f"backbone loss {m_backbone_loss.item():.4f}")


for epoch in range(1):
    train_epoch(models, criterion, optimizers, dataloaders, epoch, epoch_loss=120)
