import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Unsupervised domain adaptation: supervised loss on source + entropy
# minimisation on unlabelled target data.
feature = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU())
clf = nn.Linear(8, 2)
opt = torch.optim.SGD(list(feature.parameters()) + list(clf.parameters()), lr=0.05)
Xs = torch.randn(32, 6)
Ys = (Xs[:, 0] > 0).long()
Xt = torch.randn(32, 6) + 0.5
for step in range(3):
    logits_s = clf(feature(Xs))
    p_t = torch.softmax(clf(feature(Xt)), dim=1)
    loss_s = F.cross_entropy(logits_s, Ys)
    ent_t = -(p_t * torch.log(p_t + 1e-8)).sum(1).mean()
    opt.zero_grad()
    (loss_s + 0.1 * ent_t).backward()
    opt.step()
