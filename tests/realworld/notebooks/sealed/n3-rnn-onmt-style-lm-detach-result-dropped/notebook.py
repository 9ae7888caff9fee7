# source: variant of https://github.com/OpenNMT/OpenNMT-py/issues/403
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 1 line 12
# expert: LMState.detach() (state cell) calls h.detach() and discards the result, so the LSTM state handed from one truncated-BPTT chunk to the next still references the previous chunk's graph; reassign the detached tensors (self.hidden = tuple(h.detach() for h in self.hidden)), as proposed in the thread
# %%
import torch
import torch.nn as nn
torch.manual_seed(3435)
vocab, emb, hid = 12, 6, 8
# %%
class LMState(object):
    def __init__(self, hidden):
        self.hidden = hidden

    def update(self, hidden):
        self.hidden = hidden

    def detach(self):
        """Cut the graph between truncated-BPTT chunks."""
        for h in self.hidden:
            if h is not None:
                h.detach()
# %%
class RNNLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid)
        self.generator = nn.Linear(hid, vocab)

    def forward(self, src, state):
        out, hidden = self.rnn(self.embeddings(src), state.hidden)
        state.update(hidden)
        return self.generator(out), state

model = RNNLM()
optim = torch.optim.SGD(model.parameters(), lr=1.0)
criterion = nn.CrossEntropyLoss()
corpus = torch.randint(0, vocab, (13, 2))
# %%
trunc_size = 4
state = LMState((torch.zeros(1, 2, hid), torch.zeros(1, 2, hid)))
for j in range(0, corpus.size(0) - 1, trunc_size):
    src = corpus[j: j + trunc_size]
    tgt = corpus[j + 1: j + 1 + trunc_size]
    model.zero_grad()
    logits, state = model(src[:tgt.size(0)], state)
    loss = criterion(logits.reshape(-1, vocab), tgt.reshape(-1))
    loss.backward()
    optim.step()
    state.detach()
    print(j, loss.item())
