# source: variant of https://github.com/fastai/fastbook/pull/469 (the LMModel3 quoted in the PR, written without its final self.h = self.h.detach(), i.e. the book's stateful LMModel before the detach is introduced; a sanity-check cell runs one batch and a backward, then the training cell, without ModelResetter, continues from the state the sanity check left in model.h; random token ids instead of HUMAN_NUMBERS, plain nn.Module/loop for fastai's Module/Learner)
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 1 line 12
# expert: model.h keeps the hidden state of the sanity-check batch together with the graph that produced it; that graph was freed by the sanity check's loss.backward(), so the first backward of the training cell, which runs back into it through self.h, fails. Detach the state at the end of forward, self.h = self.h.detach(), as LMModel3 in the PR (and the book) does, so that only the current batch is backpropagated
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab = [str(i) for i in range(30)]
nums = torch.randint(0, len(vocab), (3 * 64 * 6 + 4,))
seqs = [(nums[i:i + 3], nums[i + 3]) for i in range(0, len(nums) - 4, 3)]
bs = 64


def group_chunks(ds, bs):
    m = len(ds) // bs
    new_ds = []
    for i in range(m):
        new_ds += [ds[i + m * j] for j in range(bs)]
    return new_ds


train = group_chunks(seqs, bs)
batches = [(torch.stack([x for x, _ in train[i:i + bs]]), torch.stack([y for _, y in train[i:i + bs]]))
           for i in range(0, len(train) - bs + 1, bs)]  # drop_last=True, shuffle=False
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
model = LMModel3(len(vocab), 64)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

# sanity check: one batch, loss and gradients
xb, yb = batches[0]
loss = F.cross_entropy(model(xb), yb)
loss.backward()
print(loss.item(), model.h_h.weight.grad.abs().mean().item())
opt.zero_grad()
# %%
for epoch in range(2):
    for xb, yb in batches:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, loss.item())
