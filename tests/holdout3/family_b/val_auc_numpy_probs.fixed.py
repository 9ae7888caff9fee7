import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def rank_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty_like(order, dtype=float)
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x_tr, y_tr = torch.randn(64, 8), torch.randint(0, 2, (64,))
x_va, y_va = torch.randn(32, 8), torch.randint(0, 2, (32,))

for epoch in range(3):
    model.train()
    loss = F.cross_entropy(model(x_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()

    model.eval()
    with torch.no_grad():
        probs = F.softmax(model(x_va), dim=1)[:, 1].numpy()
    print(epoch, loss.item(), rank_auc(probs, y_va.numpy()))
