# source: variant of https://github.com/KanishJebaMathewM/Truxify/pull/11585
import torch
import torch.nn as nn

torch.manual_seed(0)


class GradientSurgery:
    @staticmethod
    def pcgrad(task_grads):
        projected = [g.clone() for g in task_grads]
        for i, g_i in enumerate(projected):
            for j, g_j in enumerate(task_grads):
                if i == j:
                    continue
                dot = torch.dot(g_i.flatten(), g_j.flatten())
                if dot < 0:
                    g_i -= dot * g_j / (g_j.norm() ** 2 + 1e-12)
        return torch.stack(projected).sum(0)


class MultiTaskModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.heads = nn.ModuleDict({"eta": nn.Linear(16, 1), "delay": nn.Linear(16, 1), "demand": nn.Linear(16, 3)})

    def forward(self, x):
        h = self.trunk(x)
        return {k: head(h) for k, head in self.heads.items()}


class MultiTaskTrainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train_step(self, x, targets):
        out = self.model(x)
        losses = {
            "eta": nn.functional.mse_loss(out["eta"], targets["eta"]),
            "delay": nn.functional.l1_loss(out["delay"], targets["delay"]),
            "demand": nn.functional.cross_entropy(out["demand"], targets["demand"]),
        }
        params = [p for p in self.model.parameters() if p.requires_grad]
        per_task = []
        for name, L_t in losses.items():
            g_t = torch.autograd.grad(L_t, params, retain_graph=True, allow_unused=True)
            g_t = [torch.zeros_like(p) if g is None else g for p, g in zip(params, g_t)]
            per_task.append(g_t)
        self.optimizer.zero_grad()
        for k, p in enumerate(params):
            p.grad = GradientSurgery.pcgrad([task[k] for task in per_task])
        self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}


trainer = MultiTaskTrainer(MultiTaskModel())
for step in range(3):
    x = torch.randn(6, 8)
    targets = {"eta": torch.randn(6, 1), "delay": torch.randn(6, 1), "demand": torch.randint(0, 3, (6,))}
    print(step, trainer.train_step(x, targets))
