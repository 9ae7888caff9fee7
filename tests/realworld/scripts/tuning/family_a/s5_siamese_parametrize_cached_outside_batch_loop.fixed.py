# source: variant of https://github.com/pytorch/pytorch/issues/71062
# style: contrastive
# cause: computed_before_loop
# line: 66
# expert: torch.nn.utils.parametrize.cached() computes the parametrized weight once, differentiably, and reuses that same tensor for the whole context, so doing several backward passes inside one cached() block backpropagates through the first step's freed graph (albanD); enter cached() per training step, around the siamese forward only, so every backward gets a freshly computed weight
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)


class RowNormalize(nn.Module):
    """Parametrization: each output unit of the projection has a unit-norm weight vector."""

    def forward(self, W):
        return W / W.norm(dim=1, keepdim=True)


class SiameseNet(nn.Module):
    def __init__(self, in_dim=32, hidden=64, emb_dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, emb_dim, bias=False)
        parametrize.register_parametrization(self.head, "weight", RowNormalize())

    def embed(self, x):
        return self.head(self.backbone(x))

    def forward(self, img0, img1, solver_num_iters=1):
        # both branches share the same (parametrized) weights
        return self.embed(img0), self.embed(img1)


def compute_loss(emb0, emb1, label, margin=1.0):
    # contrastive loss (Hadsell et al.): pull similar pairs together, push dissimilar ones apart
    dist = F.pairwise_distance(emb0, emb1)
    return (label * dist.pow(2) + (1 - label) * F.relu(margin - dist).pow(2)).mean()


def make_pairs(n=16, in_dim=32):
    anchor = torch.randn(n, in_dim)
    label = torch.randint(0, 2, (n,)).float()
    other = torch.where(label[:, None] > 0, anchor + 0.1 * torch.randn(n, in_dim), torch.randn(n, in_dim))
    return anchor, other, label


model = SiameseNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
train_loader = [make_pairs() for _ in range(4)]


def training_step(batch, batch_idx, solver_num_iters=1):
    img0, img1, label = batch
    # cache the parametrized head weight only for this step's two branches
    with parametrize.cached():
        pred = model(img0, img1, solver_num_iters=solver_num_iters)
    loss = compute_loss(*pred, label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


for epoch in range(2):
    for batch_idx, batch in enumerate(train_loader):
        loss = training_step(batch, batch_idx)
    print(epoch, loss.item())
