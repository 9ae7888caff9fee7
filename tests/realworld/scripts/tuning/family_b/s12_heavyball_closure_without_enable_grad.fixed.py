# source: https://github.com/HomebrewML/HeavyBall/issues/10
# style: optim
# cause: no_grad_fn
# line: 48
# expert: step() is decorated with @torch.no_grad() and calls closure() directly, so the forward pass inside the closure records no graph and loss.backward() fails with "element 0 of tensors does not require grad". Fixed in HeavyBall 0.15.0 as proposed in the issue: call the closure under torch.enable_grad().
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def _precond_schedule(step, precond_scheduler):
    precond_prob = max(step, 1) ** precond_scheduler[0]
    precond_prob = math.log10(precond_prob)
    precond_prob = precond_prob ** precond_scheduler[1] + 1
    return 1 / precond_prob


class StatefulOptimizer(torch.optim.Optimizer):
    def state_(self, arg: torch.Tensor):
        return self.state[arg]


class PrecondSchedulePaLMForeachSOAP(StatefulOptimizer):
    """
    SOAP with a PaLM-style beta2 schedule and a preconditioner update schedule.
    Reduced here to a diagonal (Adam-in-eigenbasis-free) preconditioner.
    """

    def __init__(self, params, lr: float = 3e-3, beta: float = 0.9, shampoo_beta: float = 0.95,
                 eps: float = 1e-8, weight_decay: float = 0.01, max_precond_dim: int = 2048,
                 precond_scheduler=(1 / 3, 9), beta2_scale: float = 0.8, warmup_steps: int = 1):
        defaults = {"lr": lr, "beta": beta, "shampoo_beta": shampoo_beta, "eps": eps,
                    "weight_decay": weight_decay, "max_precond_dim": max_precond_dim,
                    "precond_scheduler": precond_scheduler, "beta2_scale": beta2_scale,
                    "warmup_steps": warmup_steps}
        super().__init__(params, defaults)
        self._data_format = "channels_first"

    @torch.no_grad()
    def step(self, closure=None):
        if closure is None:
            loss = None
        else:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            vals = []
            step = 0
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state_(p)
                if "step" not in state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, dtype=torch.float32)
                    state["exp_avg_sq"] = torch.zeros_like(p, dtype=torch.float32)
                    state["precond"] = torch.ones_like(p, dtype=torch.float32)
                state["step"] += 1
                step = state["step"]
                vals.append((p, p.grad, state))

            if not vals:
                continue

            beta1 = group["beta"]
            beta2 = 1 - step ** -group["beta2_scale"]  # PaLM schedule
            lr = group["lr"] * min(1.0, step / group["warmup_steps"])
            update_precond = torch.rand(()) < _precond_schedule(step, group["precond_scheduler"])

            for p, g, state in vals:
                if update_precond:
                    state["precond"].mul_(group["shampoo_beta"]).add_(g.abs(), alpha=1 - group["shampoo_beta"])
                g = g / (state["precond"] + group["eps"])
                state["exp_avg"].mul_(beta1).add_(g, alpha=1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
                denom = state["exp_avg_sq"].sqrt().add_(group["eps"])
                p.mul_(1 - lr * group["weight_decay"])
                p.addcdiv_(state["exp_avg"], denom, value=-lr)
        return loss


model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
optimizer = PrecondSchedulePaLMForeachSOAP(model.parameters(), lr=3e-3)

x = torch.randn(64, 16)
y = torch.randint(0, 4, (64,))

for it in range(5):
    # what PyTorch Lightning's automatic optimization does: optimizer.step(closure)
    def closure():
        optimizer.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(it, round(loss.item(), 4))
