# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/305
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: file evolvegcn.py line 74
# expert: EvolveGCNO keeps its GRU-evolved GCN weight in the module attribute self.weight and feeds it back on the next call, so the first snapshot of epoch 2 builds on epoch 1's already-backpropagated graph and loss.backward() fails; the fix that closed the issue (commit 987e43e) cuts the state between epochs with model.recurrent.weight = model.recurrent.weight.detach() after the optimizer step
# %%
import torch
import torch.nn.functional as F
from evolvegcn import EvolveGCNO
torch.manual_seed(0)


class Snapshot:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y


# stand-in for ChickenpoxDatasetLoader().get_dataset(): 20 counties, 4 lagged features, weekly snapshots
num_nodes, node_features = 20, 4
edge_index = torch.randint(0, num_nodes, (2, 60))
dataset = [Snapshot(torch.randn(num_nodes, node_features), edge_index, torch.rand(60), torch.randn(num_nodes))
           for _ in range(10)]
train_dataset, test_dataset = dataset[:6], dataset[6:]
# %%
class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = EvolveGCNO(node_features)
        self.linear = torch.nn.Linear(node_features, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        h = self.linear(h)
        return h
# %%
model = RecurrentGCN(node_features=4)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()
# %%
for epoch in range(3):
    loss = 0
    for i, snapshot in enumerate(train_dataset):
        y_pred = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
        loss = loss + torch.mean((y_pred - snapshot.y) ** 2)
    loss = loss / (i + 1)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print('epoch', epoch, 'MSE', loss.item())
