# cause: recurrent_state_not_detached
# line: 24
# why: In the character-level while loop the GRU hidden state h is passed into the next window still attached to the previous window's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
text = "hello world, hello torch, hello autograd"
vocab = sorted(set(text))
idx = torch.tensor([vocab.index(ch) for ch in text])
V = len(vocab)
emb = nn.Embedding(V, 8)
gru = nn.GRU(8, 16)
dec = nn.Linear(16, V)
params = list(emb.parameters()) + list(gru.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=5e-3)

h = None
pos, bptt = 0, 8
while pos + bptt + 1 <= len(idx):
    inp = idx[pos:pos + bptt].unsqueeze(1)
    tgt = idx[pos + 1:pos + bptt + 1]
    out, h = gru(emb(inp), h)
    loss = F.cross_entropy(dec(out.squeeze(1)), tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    pos += bptt
    print(pos, loss.item())
