import torch
import torch.nn as nn

torch.manual_seed(0)
PAD = 0
emb = nn.Embedding(12, 4, padding_idx=PAD)
clf = nn.Linear(4, 2)
opt = torch.optim.Adam(list(emb.parameters()) + list(clf.parameters()), lr=1e-2)
tokens = torch.randint(0, 12, (6, 5))
labels = torch.randint(0, 2, (6,))
for epoch in range(3):
    logits = clf(emb(tokens).mean(1))
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
