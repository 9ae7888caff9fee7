# cause: tensor_reused_across_iterations
# line: 27
# why: keys are enqueued into self.queue with their graph attached, so the next step's negatives backpropagate into the previous step's freed encoder graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ContrastiveLearner(nn.Module):
    def __init__(self, in_dim=16, dim=8, queue_size=32, tau=0.2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.tau = tau
        self.queue_size = queue_size
        self.queue = F.normalize(torch.randn(queue_size, dim), dim=1)

    def forward(self, x):
        q = F.normalize(self.encoder(x + 0.1 * torch.randn_like(x)), dim=1)
        k = F.normalize(self.encoder(x + 0.1 * torch.randn_like(x)), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.t()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.tau
        labels = torch.zeros(x.size(0), dtype=torch.long)
        loss = F.cross_entropy(logits, labels)
        self.queue = torch.cat([k, self.queue], dim=0)[: self.queue_size]
        return loss


learner = ContrastiveLearner()
optimizer = torch.optim.SGD(learner.parameters(), lr=0.05, momentum=0.9)
for step in range(4):
    x = torch.randn(8, 16)
    loss = learner(x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
