import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V = 10
emb = nn.Embedding(V, 8)
head = nn.Linear(8, V)
opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.5)
seq = torch.randint(0, V, (6, 4))  # time x batch

for epoch in range(2):
    loss = 0.0
    for t in range(seq.size(0) - 1):
        logits = head(torch.tanh(emb(seq[t])))
        loss = loss + F.cross_entropy(logits, seq[t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
