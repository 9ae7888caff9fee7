# source: https://github.com/xiaxin1998/DHCN/issues/8
# style: gnn
# cause: numpy_on_grad_tensor
# line: 25
# expert: do not sum the layer embeddings with numpy inside forward; stack them and sum with torch (np.sum(final, 0) -> torch.sum(torch.stack(final), 0)) so the result stays a differentiable tensor
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class HyperConv(nn.Module):
    def __init__(self, layers, emb_size=16):
        super().__init__()
        self.emb_size = emb_size
        self.layers = layers

    def forward(self, adjacency, embedding):
        item_embeddings = embedding
        final = [item_embeddings]
        for i in range(self.layers):
            item_embeddings = torch.sparse.mm(adjacency, item_embeddings)
            final.append(item_embeddings)
        item_embeddings = np.sum(final, 0) / (self.layers + 1)
        return item_embeddings


n_node, emb = 30, 16
idx = torch.randint(0, n_node, (2, 120))
adjacency = torch.sparse_coo_tensor(idx, torch.rand(120) / 4, (n_node, n_node)).coalesce()
embedding = nn.Embedding(n_node, emb)
conv = HyperConv(layers=2, emb_size=emb)
optimizer = torch.optim.Adam(embedding.parameters(), lr=1e-3)
for step in range(2):
    item_emb = conv(adjacency, embedding.weight)
    sess = torch.randint(0, n_node, (8, 5))
    scores = item_emb[sess].mean(1) @ item_emb.t()
    loss = nn.functional.cross_entropy(scores, torch.randint(0, n_node, (8,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
