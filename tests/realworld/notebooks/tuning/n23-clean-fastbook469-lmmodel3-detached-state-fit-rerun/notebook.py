# source: https://github.com/fastai/fastbook/pull/469 (the LMModel3 quoted in the PR, as 12_nlp_dive.ipynb trains it on group_chunks of the human-numbers sequences with a reset at the start of each epoch, which jph00 answered "is working for me without the change"; fastai's Module/Learner/ModelResetter written as a plain nn.Module and a one-epoch training cell run twice, random token ids instead of the HUMAN_NUMBERS dataset)
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: forward ends with self.h = self.h.detach(), so the state carried to the next batch (and into the re-run of the fit cell) has no graph behind it, and reset() puts it back to 0 at each epoch
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
        self.h = self.h.detach()
        return out

    def reset(self): self.h = 0
# %%
model = LMModel3(len(vocab), 64)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
# %%
# one epoch of learn.fit(1, 3e-3) with cbs=ModelResetter
model.reset()
for xb, yb in batches:
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    opt.zero_grad()
print(loss.item())
