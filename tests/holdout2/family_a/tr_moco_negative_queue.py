# cause: tensor_reused_across_iterations
# line: 39
# why: Key embeddings are pushed into the negatives queue with their graph attached, so the next step's loss backpropagates into an earlier step's freed encoder graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


encoder = Encoder()
opt = torch.optim.SGD(encoder.parameters(), lr=0.03, momentum=0.9)
queue = []
temperature = 0.2
for step in range(5):
    x = torch.randn(16, 10)
    q = encoder(x + 0.1 * torch.randn_like(x))
    k = encoder(x + 0.1 * torch.randn_like(x))
    pos = (q * k).sum(dim=1, keepdim=True)
    if queue:
        neg = q @ torch.cat(queue).t()
        logits = torch.cat([pos, neg], dim=1) / temperature
    else:
        logits = pos / temperature
    labels = torch.zeros(16, dtype=torch.long)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    queue.append(k)
    queue = queue[-4:]
