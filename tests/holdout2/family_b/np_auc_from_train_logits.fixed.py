import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def roc_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


X = torch.randn(50, 7)
y = (X[:, 0] - X[:, 3] > 0).float()
model = nn.Sequential(nn.Linear(7, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
aucs = []
for epoch in range(3):
    logits = model(X).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    probs = torch.sigmoid(logits).detach().numpy()
    aucs.append(roc_auc(probs, y.numpy()))
