# source: variant of https://discuss.pytorch.org/t/how-to-do-only-one-forward-propagation-per-epoch-and-multiple-backward-propagations-on-graph/65396
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 3 line 1
# expert: the user and item embeddings are produced by one GNN forward pass in their own cell ("code B") and every batch's loss reuses them, so the first batch's backward frees that shared graph and the second batch fails; the poster's working "code A" runs user_embedding, item_embedding = model(G) inside the batch loop, so each backward has its own graph
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

# stand-in for the user-item bipartite graph G: a normalised interaction matrix
n_users, n_items = 12, 10
G = (torch.rand(n_users, n_items) < 0.3).float()
G = G / G.sum(1, keepdim=True).clamp(min=1)
# batches of (user, positive item, negative item) triples
dataset = [torch.stack([torch.randint(0, n_users, (6,)), torch.randint(0, n_items, (6,)),
                        torch.randint(0, n_items, (6,))], 1) for _ in range(4)]
# %%
class Model(nn.Module):
    def __init__(self, G, in_size, hidden_size, out_size):
        super().__init__()
        self.user_emb = nn.Parameter(torch.randn(G.shape[0], in_size) * 0.1)
        self.item_emb = nn.Parameter(torch.randn(G.shape[1], in_size) * 0.1)
        self.layer1 = nn.Linear(in_size, hidden_size)
        self.layer2 = nn.Linear(hidden_size, out_size)

    def forward(self, G):
        # two rounds of message passing over the interaction graph
        u = F.relu(self.layer1(self.user_emb + G @ self.item_emb))
        i = F.relu(self.layer1(self.item_emb + G.t() @ self.user_emb))
        u2 = self.layer2(u + G @ i)
        i2 = self.layer2(i + G.t() @ u)
        return u2, i2

    def getloss(self, batch_data, user_embedding, item_embedding):
        u = user_embedding[batch_data[:, 0]]
        pos = item_embedding[batch_data[:, 1]]
        neg = item_embedding[batch_data[:, 2]]
        return -F.logsigmoid((u * pos).sum(1) - (u * neg).sum(1)).mean()
# %%
model = Model(G, 8, 8, 8)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
# %%
user_embedding, item_embedding = model(G)
# %%
for epoch in range(2):
    for batch_data in dataset:
        optimizer.zero_grad()
        loss = model.getloss(batch_data, user_embedding, item_embedding)
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
