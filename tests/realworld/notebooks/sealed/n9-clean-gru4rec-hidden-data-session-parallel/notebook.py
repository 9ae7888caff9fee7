# source: https://github.com/yhs968/pyGRU4REC/blob/09759efaace0d3a646039571581b43c277ace87e/modules/model.py
# scenario: clean
# order: 0 1 2 3 4 4 4
# expert: Session-parallel GRU4Rec training carries `hidden` from one mini-batch to the next (and across re-runs of the training cell), but it is re-wrapped with `hidden = hidden.data` right after every optimizer step, so each backward only walks the current step's graph; zeroing the rows of finished sessions in place (hidden[:, mask, :] = 0) acts on that detached tensor. Nothing to fix.
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
np.random.seed(0)
# %%
class GRU(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, num_layers=1,
                 dropout_hidden=.5, dropout_input=0, batch_size=50):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.num_layers = num_layers
        self.dropout_input = dropout_input
        self.dropout_hidden = dropout_hidden
        self.batch_size = batch_size
        self.onehot_buffer = torch.FloatTensor(self.batch_size, self.output_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.tanh = nn.Tanh()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, dropout=dropout_hidden)

    def forward(self, embedded, target, hidden):
        if self.training:
            # Apply dropout to inputs when training
            p_drop = torch.Tensor(embedded.size(0), 1).fill_(1 - self.dropout_input)  # (B,1)
            mask = torch.bernoulli(p_drop).expand_as(embedded)  # (B,C)
            embedded = embedded * mask  # (B,C)
        embedded = embedded.unsqueeze(0)  # (1,B,C)
        output, hidden = self.gru(embedded, hidden)  # (num_layers,B,H)
        output = output.view(-1, output.size(-1))  # (B,H)
        logit = self.tanh(self.h2o(output))  # (B,C)
        if self.training:
            logit = logit[:, target.view(-1)]  # (B,B). Sample outputs
        return logit, hidden

    def emb(self, input):
        # one-hot vectors for the item indices, reusing one buffer
        self.onehot_buffer.zero_()
        index = input.view(-1, 1)
        self.onehot_buffer.scatter_(1, index, 1)
        return self.onehot_buffer

    def init_hidden(self):
        return torch.zeros(self.num_layers, self.batch_size, self.hidden_size)


def top1_loss(logit):
    diff = -(logit.diag().view(-1, 1).expand_as(logit) - logit)
    return torch.sigmoid(diff).mean() + torch.sigmoid(logit ** 2).mean()
# %%
# click log sorted by session then time: 12 sessions of 3-6 clicks over 20 items
n_items, batch_size = 20, 4
session_lengths = np.random.randint(3, 7, size=12)
iidx = np.random.randint(0, n_items, size=session_lengths.sum())
click_offsets = np.zeros(len(session_lengths) + 1, dtype=np.int32)
click_offsets[1:] = np.cumsum(session_lengths)
session_idx_arr = np.arange(len(session_lengths))

gru = GRU(n_items, 16, n_items, dropout_hidden=0.0, batch_size=batch_size)
optimizer = torch.optim.Adagrad(gru.parameters(), lr=0.05)
# %%
# initializations (run_epoch)
mb_losses = []
iters = np.arange(batch_size)
maxiter = iters.max()
start = click_offsets[session_idx_arr[iters]]
end = click_offsets[session_idx_arr[iters] + 1]
# initialize the hidden state
hidden = gru.init_hidden().data
finished = False
# %%
# train on the next session-parallel chunk; re-run this cell to keep going through the log
for _ in range(2):
    if finished:
        break
    minlen = (end - start).min()
    idx_target = iidx[start]
    for i in range(minlen - 1):
        idx_input = idx_target
        idx_target = iidx[start + i + 1]
        input = torch.LongTensor(idx_input)
        target = torch.LongTensor(idx_target)
        embedded = gru.emb(input)
        logit, hidden = gru(embedded, target, hidden)
        mb_loss = top1_loss(logit)
        mb_losses.append(mb_loss.item())
        optimizer.zero_grad()
        mb_loss.backward()
        optimizer.step()
        # Detach the hidden state for later reuse
        hidden = hidden.data
    start = start + (minlen - 1)
    mask = np.arange(len(iters))[(end - start) <= 1]
    for idx in mask:
        maxiter += 1
        if maxiter >= len(click_offsets) - 1:
            finished = True
            break
        iters[idx] = maxiter
        start[idx] = click_offsets[session_idx_arr[maxiter]]
        end[idx] = click_offsets[session_idx_arr[maxiter] + 1]
    # reset the rnn hidden state to zero after transition
    if len(mask) != 0:
        hidden[:, mask, :] = 0
print(len(mb_losses), np.mean(mb_losses))
