# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
vocab_size, embed_dim, hidden_dim = 20, 8, 16
batch_size, bptt, n_batches = 4, 5, 3
data = torch.randint(0, vocab_size, (n_batches * bptt + 1, batch_size))
input_batches = [data[i * bptt:(i + 1) * bptt] for i in range(n_batches)]
target_batches = [data[i * bptt + 1:(i + 1) * bptt + 1] for i in range(n_batches)]
# %%
class LSTMModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(embed_dim, hidden_dim)
        self.w_ho = nn.Linear(hidden_dim, vocab_size)

    def forward(self, input, hidden):
        h, c = self.cell(input, hidden)
        return self.w_ho(h), (h, c)

    def init_hidden(self, batch_size):
        return (torch.zeros(batch_size, hidden_dim), torch.zeros(batch_size, hidden_dim))

embed = nn.Embedding(vocab_size, embed_dim)
model = LSTMModel()
criterion = nn.CrossEntropyLoss()
optim = torch.optim.SGD(list(model.parameters()) + list(embed.parameters()), lr=0.05)
# %%
hidden = model.init_hidden(batch_size=batch_size)
# wrap the state once: keep the values, drop the graph history
hidden = (hidden[0].detach(), hidden[1].detach())
# %%
iterations = 2
for iter in range(iterations):
    total_loss = 0
    for batch_i in range(len(input_batches)):
        hidden = (hidden[0].detach(), hidden[1].detach())
        losses = list()
        for t in range(bptt):
            rnn_input = embed(input_batches[batch_i][t])
            output, hidden = model(rnn_input, hidden)
            batch_loss = criterion(output, target_batches[batch_i][t])
            losses.append(batch_loss)
        loss = torch.stack(losses).mean()
        optim.zero_grad()
        loss.backward()
        optim.step()
        total_loss += loss.item()
    print("Iter:", iter, "Loss:", total_loss / len(input_batches))
