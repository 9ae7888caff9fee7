# source: variant of https://github.com/yhs968/pyGRU4REC/issues/8
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 2 line 5
# expert: detach the hidden state at the start of every session-parallel mini-batch (hidden = reset_hidden(hidden, mask).detach(), as modules/model.py does), so each loss.backward() only walks the current batch's graph
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class GRU4REC(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, num_layers=1, batch_size=4):
        super().__init__()
        self.hidden_size, self.num_layers, self.batch_size = hidden_size, num_layers, batch_size
        self.onehot_buffer = torch.eye(input_size)
        self.gru = nn.GRU(input_size, hidden_size, num_layers)
        self.h2o = nn.Linear(hidden_size, output_size)

    def forward(self, input, hidden):
        embedded = self.onehot_buffer[input].unsqueeze(0)
        output, hidden = self.gru(embedded, hidden)
        logit = torch.tanh(self.h2o(output.view(-1, output.size(-1))))
        return logit, hidden

    def init_hidden(self):
        return torch.zeros(self.num_layers, self.batch_size, self.hidden_size)

def TOP1Loss(logit):
    diff = -(logit.diag().view(-1, 1).expand_as(logit) - logit)
    return torch.mean(torch.sigmoid(diff)) + torch.mean(torch.sigmoid(logit ** 2))

n_items = 12
gru = GRU4REC(n_items, 16, n_items)
optim = torch.optim.Adagrad(gru.parameters(), lr=0.05)
# %%
def reset_hidden(hidden, mask):
    """Helper function that resets hidden state when some sessions terminate"""
    if len(mask) != 0:
        hidden[:, mask, :] = 0
    return hidden

def session_parallel_loader(n_batches=4, batch_size=4):
    # stand-in for SessionDataLoader: (input, target, mask of finished sessions)
    for i in range(n_batches):
        yield torch.randint(0, n_items, (batch_size,)), torch.randint(0, n_items, (batch_size,)), []
# %%
gru.train()
losses = []
hidden = gru.init_hidden()
for input, target, mask in session_parallel_loader():
    hidden = reset_hidden(hidden, mask).detach()
    logit, hidden = gru(input, hidden)
    # output sampling
    logit_sampled = logit[:, target.view(-1)]
    loss = TOP1Loss(logit_sampled)
    losses.append(loss.item())
    optim.zero_grad()
    loss.backward()
    optim.step()
print(sum(losses) / len(losses))
