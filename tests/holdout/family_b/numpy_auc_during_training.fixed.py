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


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.randn(40, 6)
Y = (X[:, 0] > 0).float()
auc_history = []

for epoch in range(3):
    logits = model(X).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scores = torch.sigmoid(logits.detach()).numpy()
    auc_history.append(roc_auc(scores, Y.numpy()))
