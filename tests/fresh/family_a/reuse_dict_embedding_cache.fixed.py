import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
node_enc = nn.Linear(3, 8)
opt = torch.optim.Adam(node_enc.parameters(), lr=1e-2)
node_feats = {n: torch.randn(1, 3) for n in "abcd"}
pairs = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "b")]

for epoch in range(2):
    for u, v in pairs:
        emb = {n: torch.tanh(node_enc(node_feats[n])) for n in (u, v)}
        score = (emb[u] * emb[v]).sum()
        loss = F.softplus(-score)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
