# source: https://github.com/OpenNMT/OpenNMT-py/issues/403
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 0 line 12
# expert: DecoderState.detach() (defined in the first cell) calls h.detach() and throws the result away, so the decoder state carried from one truncated-BPTT chunk to the next keeps the previous chunk's graph; assign the detached tensors back (self.hidden = tuple(_.detach() for _ in self.hidden); self.input_feed = self.input_feed.detach()), as proposed in the thread
# %%
import torch
import torch.nn as nn
torch.manual_seed(3435)

class DecoderState(object):
    """Interface for grouping together the current state of a recurrent
    decoder. In the simplest case just represents the hidden state of
    the model."""
    def detach(self):
        for h in self._all:
            if h is not None:
                h.detach()

class RNNDecoderState(DecoderState):
    def __init__(self, hidden_size, rnnstate):
        if not isinstance(rnnstate, tuple):
            self.hidden = (rnnstate,)
        else:
            self.hidden = rnnstate
        self.coverage = None
        batch_size = self.hidden[0].size(1)
        self.input_feed = torch.zeros(1, batch_size, hidden_size)

    @property
    def _all(self):
        return self.hidden + (self.input_feed,)

    def update_state(self, rnnstate, input_feed, coverage):
        if not isinstance(rnnstate, tuple):
            self.hidden = (rnnstate,)
        else:
            self.hidden = rnnstate
        self.input_feed = input_feed
        self.coverage = coverage
# %%
class InputFeedDecoder(nn.Module):
    def __init__(self, emb_size, hidden_size, vocab):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, emb_size)
        self.rnn = nn.LSTMCell(emb_size + hidden_size, hidden_size)
        self.out = nn.Linear(hidden_size, vocab)

    def forward(self, tgt, state):
        emb = self.embeddings(tgt)
        hidden = (state.hidden[0][0], state.hidden[1][0])
        input_feed = state.input_feed.squeeze(0)
        outputs = []
        for emb_t in emb.split(1):
            h, c = self.rnn(torch.cat([emb_t.squeeze(0), input_feed], 1), hidden)
            input_feed = h
            hidden = (h, c)
            outputs.append(h)
        state.update_state((hidden[0].unsqueeze(0), hidden[1].unsqueeze(0)), input_feed.unsqueeze(0), None)
        return self.out(torch.stack(outputs)), state

decoder = InputFeedDecoder(4, 6, 10)
optim = torch.optim.SGD(decoder.parameters(), lr=1.0)
criterion = nn.CrossEntropyLoss()
# %%
# Trainer._gradient_accumulation with truncated BPTT (trunc_size)
target = torch.randint(0, 10, (9, 2))
trunc_size = 3
enc_final = (torch.randn(1, 2, 6), torch.randn(1, 2, 6))
dec_state = RNNDecoderState(6, enc_final)
for j in range(0, target.size(0) - 1, trunc_size):
    tgt = target[j: j + trunc_size]
    decoder.zero_grad()
    outputs, dec_state = decoder(tgt, dec_state)
    gold = target[j + 1: j + 1 + trunc_size]
    loss = criterion(outputs[:gold.size(0)].reshape(-1, 10), gold.reshape(-1))
    loss.backward()
    optim.step()
    # 4. Update the parameters and statistics.
    if dec_state is not None:
        dec_state.detach()
print(loss.item())
