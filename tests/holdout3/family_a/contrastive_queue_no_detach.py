# cause: tensor_reused_across_iterations
# line: 32
# why: The negative queue is refreshed with the key embeddings k straight from the trainable encoder, so next step's negatives carry the previous step's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

dim, queue_size, tau = 16, 64, 0.1
encoder = nn.Sequential(nn.Linear(24, 48), nn.ReLU(), nn.Linear(48, dim))
opt = torch.optim.SGD(encoder.parameters(), lr=0.03, momentum=0.9)
queue = F.normalize(torch.randn(queue_size, dim), dim=1)


def two_views(x):
    return x + 0.1 * torch.randn_like(x), x * (1 + 0.1 * torch.randn_like(x))


for step in range(5):
    x = torch.randn(16, 24)
    v1, v2 = two_views(x)
    q = F.normalize(encoder(v1), dim=1)
    k = F.normalize(encoder(v2), dim=1)
    l_pos = (q * k).sum(1, keepdim=True)
    l_neg = q @ queue.t()
    logits = torch.cat([l_pos, l_neg], dim=1) / tau
    loss = F.cross_entropy(logits, torch.zeros(16, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    opt.step()
    queue = torch.cat([k, queue], dim=0)[:queue_size]
    print(step, loss.item())
