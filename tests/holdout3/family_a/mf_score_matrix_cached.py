# cause: computed_before_loop
# line: 21
# why: The full user-item score matrix is computed once from the embeddings before the loop and indexed by every minibatch, so the second backward re-enters the freed matmul graph.
import torch
import torch.nn as nn

torch.manual_seed(0)

n_users, n_items, k = 30, 25, 8
user_emb = nn.Embedding(n_users, k)
item_emb = nn.Embedding(n_items, k)
nn.init.normal_(user_emb.weight, std=0.1)
nn.init.normal_(item_emb.weight, std=0.1)
opt = torch.optim.Adam(list(user_emb.parameters()) + list(item_emb.parameters()), lr=0.05)

# observed ratings
u_idx = torch.randint(0, n_users, (200,))
i_idx = torch.randint(0, n_items, (200,))
ratings = torch.randint(1, 6, (200,)).float()

scores = user_emb.weight @ item_emb.weight.t()
history = []
for epoch in range(3):
    for b in range(0, 200, 50):
        u, i, r = u_idx[b:b + 50], i_idx[b:b + 50], ratings[b:b + 50]
        pred = scores[u, i]
        loss = ((pred - r) ** 2).mean() + 1e-3 * (user_emb.weight.pow(2).sum() + item_emb.weight.pow(2).sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss.item())
print(history[-1])
