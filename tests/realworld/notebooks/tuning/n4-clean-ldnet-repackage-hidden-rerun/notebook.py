# source: https://github.com/LiyuanLucasLiu/LD-Net/issues/6
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: the hidden state is carried from batch to batch and across the re-run of the training cell, but repackage_hidden detaches it before every forward (the maintainer: "to detach the gradient of hidden, otherwise the backpropagation would has some error"), so each backward only walks the current batch's graph
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
# %%
class LM(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.word_embed = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid)
        self.soft_max = nn.Linear(hid, vocab)
        self.hid = hid

    def init_hidden(self, bsz):
        return (torch.zeros(1, bsz, self.hid), torch.zeros(1, bsz, self.hid))

    def forward(self, w_in, hidden):
        out, hidden = self.rnn(self.word_embed(w_in), hidden)
        return self.soft_max(out), hidden


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


vocab, batch_size, bptt = 20, 3, 5
lm_model = LM(vocab, 8, 16)
optimizer = torch.optim.SGD(lm_model.parameters(), lr=0.5)
crit = nn.CrossEntropyLoss()
hidden = lm_model.init_hidden(batch_size)
# %%
corpus = torch.randint(0, vocab, (4 * bptt + 1, batch_size))
batches = [(corpus[i:i + bptt], corpus[i + 1:i + 1 + bptt]) for i in range(0, 4 * bptt, bptt)]
# %%
lm_model.train()
for word_t, label_t in batches:
    hidden = repackage_hidden(hidden)
    lm_model.zero_grad()
    output, hidden = lm_model(word_t, hidden)
    loss = crit(output.view(-1, vocab), label_t.reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(lm_model.parameters(), 5.0)
    optimizer.step()
print(loss.item())
