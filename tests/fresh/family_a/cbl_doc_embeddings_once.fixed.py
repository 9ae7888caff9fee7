import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab = 50
emb = nn.Embedding(vocab, 8)
clf = nn.Linear(8, 2)
docs = torch.randint(0, vocab, (12, 5))
labels = torch.randint(0, 2, (12,))
opt = torch.optim.Adam(list(emb.parameters()) + list(clf.parameters()), lr=1e-2)

for epoch in range(3):
    for b in range(0, 12, 4):
        doc_vecs = torch.tanh(emb(docs[b:b + 4])).mean(dim=1)
        logits = clf(doc_vecs)
        loss = F.cross_entropy(logits, labels[b:b + 4])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
