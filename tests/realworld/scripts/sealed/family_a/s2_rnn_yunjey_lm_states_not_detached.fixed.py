# source: variant of https://github.com/yunjey/pytorch-tutorial/issues/90
# style: rnn
# cause: recurrent_state_not_detached
# line: 65
# expert: keep `states = detach(states)` at the start of every chunk (truncated BPTT): the LSTM states carried from the previous chunk must be cut from its freed graph
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)

# Hyper Parameters
embed_size = 16
hidden_size = 32
num_layers = 1
num_epochs = 2
batch_size = 4
seq_length = 6
learning_rate = 0.002

vocab_size = 30
ids = torch.randint(0, vocab_size, (batch_size, 60))
num_batches = ids.size(1) // seq_length


# RNN Based Language Model
class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)
        self.init_weights()

    def init_weights(self):
        self.embed.weight.data.uniform_(-0.1, 0.1)
        self.linear.bias.data.fill_(0)
        self.linear.weight.data.uniform_(-0.1, 0.1)

    def forward(self, x, h):
        x = self.embed(x)
        out, h = self.lstm(x, h)
        out = out.contiguous().view(out.size(0) * out.size(1), out.size(2))
        out = self.linear(out)
        return out, h


model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


# Truncated Backpropagation
def detach(states):
    return [state.detach() for state in states]


for epoch in range(num_epochs):
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))
    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs = ids[:, i:i + seq_length]
        targets = ids[:, (i + 1):(i + 1) + seq_length]
        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        model.zero_grad()
        loss.backward()
        clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
    print('Epoch [{}/{}], Loss: {:.4f}'.format(epoch + 1, num_epochs, loss.item()))
