# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
num_layers, batch_size, hidden_dim, embedding_dim = 1, 4, 6, 5
EPOCH = 2
# %%
class MyLSTM(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, num_layers):
        super().__init__()
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, num_layers, batch_first=True)
        self.out = nn.Linear(hidden_dim, embedding_dim)

    def forward(self, x, h0, c0):
        y, (hn, cn) = self.lstm(x, (h0, c0))
        return self.out(y), (hn, cn)


lstm = MyLSTM(embedding_dim, hidden_dim, num_layers)
# %%
data = torch.randn(3 * batch_size, 7, embedding_dim)
data_loader = [(data[i:i + batch_size, :-1], data[i:i + batch_size, 1:]) for i in range(0, len(data), batch_size)]
batch_count = len(data_loader)
optimizer = torch.optim.Adam(lstm.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
# %%
for epoch in range(EPOCH):
    batch_num = 0
    h0 = torch.randn((num_layers, batch_size, hidden_dim), requires_grad=False)
    c0 = torch.randn((num_layers, batch_size, hidden_dim), requires_grad=False)
    for batch in data_loader:
        optimizer.zero_grad()
        output, (h0, c0) = lstm(batch[0], h0.detach(), c0.detach())
        loss = loss_fn(output.reshape(-1, embedding_dim), batch[1].reshape(-1, embedding_dim))
        loss.backward()
        optimizer.step()
        batch_num += 1
        if batch_num % min(10, batch_count // 2) == 0:
            print(f'epoch {epoch} : batch {batch_num} : {loss.item():.4f}')
