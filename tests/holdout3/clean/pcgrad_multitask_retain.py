import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

trunk = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
heads = nn.ModuleList([nn.Linear(32, 1), nn.Linear(32, 3)])
shared = list(trunk.parameters())
opt = torch.optim.Adam(list(trunk.parameters()) + list(heads.parameters()), lr=1e-3)


def project_conflicts(grads):
    flat = [torch.cat([g.flatten() for g in gs]) for gs in grads]
    out = [f.clone() for f in flat]
    for i in range(len(flat)):
        for j in range(len(flat)):
            if i != j:
                dot = out[i] @ flat[j]
                if dot < 0:
                    out[i] -= dot / flat[j].pow(2).sum() * flat[j]
    return sum(out)


for step in range(4):
    x = torch.randn(16, 10)
    y_reg, y_cls = x[:, :1] * 0.5, torch.randint(0, 3, (16,))
    h = trunk(x)
    losses = [F.mse_loss(heads[0](h), y_reg), F.cross_entropy(heads[1](h), y_cls)]
    opt.zero_grad()
    # per-task gradients of the shared trunk: two passes through one graph are intended
    task_grads = [torch.autograd.grad(l, shared, retain_graph=True) for l in losses]
    merged = project_conflicts(task_grads)
    sum(losses).backward()  # head gradients (and a trunk gradient we overwrite below)
    offset = 0
    for p in shared:
        n = p.numel()
        p.grad = merged[offset:offset + n].view_as(p).clone()
        offset += n
    opt.step()
    print(step, [round(l.item(), 4) for l in losses])
