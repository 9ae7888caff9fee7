# source: https://github.com/fastai/fastbook/blob/master/12_nlp_dive.ipynb
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 1 line 12
# expert: the stateful LMModel3 keeps self.h across batches, so without truncating it the next batch backpropagates into the previous batch's freed graph; detach the state after computing the output (self.h = self.h.detach()), as the book's LMModel3 does
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# stand-in for the human-numbers token stream
vocab_sz = 30
nums = torch.randint(0, vocab_sz, (3 * 8 * 6 + 1,))
bs, sl = 8, 3
seqs = [(nums[i:i + sl], nums[i + sl]) for i in range(0, len(nums) - sl - 1, sl)]
m = len(seqs) // bs
# group_chunks: batch k of every row continues the text of batch k-1
batches = [(torch.stack([seqs[j * m + k][0] for j in range(bs)]),
            torch.stack([seqs[j * m + k][1] for j in range(bs)])) for k in range(m)]
# %%
class LMModel3(nn.Module):
    def __init__(self, vocab_sz, n_hidden):
        super().__init__()
        self.i_h = nn.Embedding(vocab_sz, n_hidden)
        self.h_h = nn.Linear(n_hidden, n_hidden)
        self.h_o = nn.Linear(n_hidden, vocab_sz)
        self.h = 0

    def forward(self, x):
        for i in range(3):
            self.h = self.h + self.i_h(x[:, i])
            self.h = F.relu(self.h_h(self.h))
        out = self.h_o(self.h)
        return out

    def reset(self): self.h = 0
# %%
model = LMModel3(vocab_sz, 32)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_func = F.cross_entropy
# %%
for epoch in range(2):
    model.reset()          # what ModelResetter does at the start of each epoch
    for xb, yb in batches:
        loss = loss_func(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
