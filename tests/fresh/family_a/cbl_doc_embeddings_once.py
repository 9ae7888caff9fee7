# cause: computed_before_loop
# line: 16
# why: Document vectors are looked up from the trainable embedding once before the loops, so the second mini-batch's backward re-enters the freed embedding graph.
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

doc_vecs = torch.tanh(emb(docs)).mean(dim=1)
for epoch in range(3):
    for b in range(0, 12, 4):
        logits = clf(doc_vecs[b:b + 4])
        loss = F.cross_entropy(logits, labels[b:b + 4])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
