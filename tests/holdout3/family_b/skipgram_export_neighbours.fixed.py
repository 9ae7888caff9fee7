import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

corpus = "king queen man woman prince princess boy girl king man queen woman".split()
vocab = sorted(set(corpus))
w2i = {w: i for i, w in enumerate(vocab)}
pairs = [(w2i[corpus[i]], w2i[corpus[j]]) for i in range(len(corpus))
         for j in range(max(0, i - 2), min(len(corpus), i + 3)) if i != j]
centers = torch.tensor([p[0] for p in pairs])
contexts = torch.tensor([p[1] for p in pairs])


class SkipGram(nn.Module):
    def __init__(self, v, d=8):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.out = nn.Linear(d, v)

    def forward(self, c):
        return self.out(self.emb(c))


model = SkipGram(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(20):
    loss = F.cross_entropy(model(centers), contexts)
    opt.zero_grad()
    loss.backward()
    opt.step()

emb = model.emb.weight.detach().numpy()
emb = emb / np.linalg.norm(emb, axis=1, keepdims=True)
sims = emb @ emb.T
neighbours = {w: vocab[int(np.argsort(-sims[i])[1])] for w, i in w2i.items()}
print(neighbours)
