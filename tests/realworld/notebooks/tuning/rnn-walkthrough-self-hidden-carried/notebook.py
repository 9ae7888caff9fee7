# source: https://github.com/gabrielloye/RNN-walkthrough/issues/3
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 1 line 11
# expert: the model keeps its RNN state in self.hidden between epochs, so epoch 2 backpropagates through epoch 1's freed graph; feed the carried state detached: self.rnn(x, self.hidden.detach()) (the issue author's working version)
# %%
import torch
import torch.nn as nn
import numpy as np
torch.manual_seed(0)
text = ['hey how are you', 'good i am fine', 'have a nice day']
chars = sorted(set(''.join(text)))
int2char = dict(enumerate(chars))
char2int = {char: ind for ind, char in int2char.items()}
maxlen = len(max(text, key=len))
text = [t.ljust(maxlen) for t in text]
input_seq = [[char2int[c] for c in t[:-1]] for t in text]
target_seq = [[char2int[c] for c in t[1:]] for t in text]
dict_size, seq_len, batch_size = len(char2int), maxlen - 1, len(text)
features = np.zeros((batch_size, seq_len, dict_size), dtype=np.float32)
for i in range(batch_size):
    for u in range(seq_len):
        features[i, u, input_seq[i][u]] = 1
input_seq = torch.from_numpy(features)
target_seq = torch.Tensor(target_seq)
# %%
class Model(nn.Module):
    def __init__(self, input_size, output_size, hidden_dim, n_layers):
        super(Model, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_layers = n_layers
        self.rnn = nn.RNN(input_size, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_size)
        self.hidden = torch.zeros(n_layers, batch_size, hidden_dim)

    def forward(self, x):
        out, self.hidden = self.rnn(x, self.hidden)
        out = out.contiguous().view(-1, self.hidden_dim)
        out = self.fc(out)
        return out, self.hidden
# %%
model = Model(input_size=dict_size, output_size=dict_size, hidden_dim=12, n_layers=1)
n_epochs = 20
lr = 0.01
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=lr)
# %%
for epoch in range(1, n_epochs + 1):
    optimizer.zero_grad()
    output, hidden = model(input_seq)
    loss = criterion(output, target_seq.view(-1).long())
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print('Epoch: {}/{}.............'.format(epoch, n_epochs), end=' ')
        print("Loss: {:.4f}".format(loss.item()))
