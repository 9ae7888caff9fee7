# cause: shared_subgraph_multiple_backward
# line: 40
# why: Both views go through one batched encoder forward, so the second symmetric loss's backward re-enters the encoder graph freed by the first.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

online = nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 16))
predictor = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(list(online.parameters()) + list(predictor.parameters()), lr=0.05, momentum=0.9)
tau = 0.99


def regression_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z, dim=-1).mean()


@torch.no_grad()
def ema_update():
    for po, pt in zip(online.parameters(), target.parameters()):
        pt.mul_(tau).add_(po, alpha=1 - tau)


for step in range(4):
    x = torch.randn(16, 32)
    v1 = x + 0.1 * torch.randn_like(x)
    v2 = x * (1 + 0.1 * torch.randn_like(x))
    p1, p2 = predictor(online(torch.cat([v1, v2]))).chunk(2)
    with torch.no_grad():
        z1, z2 = target(torch.cat([v1, v2])).chunk(2)
    loss_12 = regression_loss(p1, z2)
    loss_21 = regression_loss(p2, z1)
    opt.zero_grad()
    loss_12.backward()
    loss_21.backward()
    opt.step()
    ema_update()
    print(step, loss_12.item() + loss_21.item())
