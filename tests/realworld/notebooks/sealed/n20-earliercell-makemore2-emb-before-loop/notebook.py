# source: variant of https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/makemore/makemore_part2_mlp.ipynb (the lecture's exploration cells build emb = C[X] and h from it before the training loop is written; here the loop reuses that emb instead of looking it up again; a random name list instead of names.txt)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 2 line 1
# expert: emb = C[X] is made once in the exploration cell with the graph into C, and the training loop keeps using it, so the second step backpropagates through the lookup the first step already freed (and C would never see new lookups); do the embedding lookup inside the loop, emb = C[X], as the lecture's training cell does.
# %%
import random
import torch
import torch.nn.functional as F
random.seed(42)
g = torch.Generator().manual_seed(2147483647)
letters = 'abcdefghijklmnopqrstuvwxyz'
words = [''.join(random.choice(letters) for _ in range(random.randint(3, 7))) for _ in range(40)]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
# %%
block_size = 3  # context length: how many characters do we take to predict the next one?
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + '.':
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
X = torch.tensor(X)
Y = torch.tensor(Y)
C = torch.randn((27, 2), generator=g)
W1 = torch.randn((6, 100), generator=g)
b1 = torch.randn(100, generator=g)
W2 = torch.randn((100, 27), generator=g)
b2 = torch.randn(27, generator=g)
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
# %%
emb = C[X]
emb.shape
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
h.shape
# %%
for _ in range(10):
    # forward pass
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y)
    print(loss.item())
    # backward pass
    for p in parameters:
        p.grad = None
    loss.backward()
    # update
    for p in parameters:
        p.data += -0.1 * p.grad
