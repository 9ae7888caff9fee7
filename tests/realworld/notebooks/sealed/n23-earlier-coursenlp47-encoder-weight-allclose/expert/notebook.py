# source: https://github.com/fastai/course-nlp/issues/47 (5-nn-imdb.ipynb: the vocabulary cells, awd = learn.model[0] / enc = learn.model[0].encoder, and the np.allclose check that two out-of-vocabulary words share the xxunk embedding; fastai's language_model_learner(data_lm, AWD_LSTM) and TextLMDataBunch replaced by a tiny embedding+LSTM language model and a small Vocab with a defaultdict stoi, random weights instead of the pretrained WT103 ones)
# scenario: earlier_cell
# cause: numpy_on_grad_tensor
# root: cell 2 line 2
# expert: enc, taken from the model in the cell above, holds the embedding as an nn.Parameter that requires grad, and np.allclose converts the two rows with numpy(), which refuses tensors that require grad; the issue has no maintainer answer, and the fix is the one the error message names: compare detached rows (enc.weight[...].detach()), which leaves the model untouched
# %%
import collections
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class Vocab():
    "Contain the correspondence between numbers and tokens and numericalize."
    def __init__(self, itos):
        self.itos = itos
        self.stoi = collections.defaultdict(int, {v: k for k, v in enumerate(self.itos)})


words = ['xxunk', 'xxpad', 'xxbos', 'the', 'movie', 'film', 'stingray', 'good', 'bad', 'plot']
vocab = Vocab(words + ['tok%d' % i for i in range(30)])


class AWDLSTMStandIn(nn.Module):
    def __init__(self, vocab_sz, emb_sz=16, n_hid=32):
        super().__init__()
        self.encoder = nn.Embedding(vocab_sz, emb_sz, padding_idx=1)
        self.rnn = nn.LSTM(emb_sz, n_hid, batch_first=True)

    def forward(self, x):
        return self.rnn(self.encoder(x))[0]


class Learner():
    def __init__(self, model): self.model = model


learn = Learner(nn.Sequential(AWDLSTMStandIn(len(vocab.itos)), nn.Linear(32, len(vocab.itos))))
# %%
vocab.stoi["stingray"]
print(vocab.stoi["stingray"], vocab.itos[vocab.stoi["stingray"]])
print(vocab.itos[vocab.stoi["mobula"]])
# %%
awd = learn.model[0]
enc = learn.model[0].encoder
print(enc.weight.size())
# %%
print(np.allclose(enc.weight[vocab.stoi["30-something"], :].detach(),
                  enc.weight[vocab.stoi["linklater"], :].detach()))
print(np.allclose(enc.weight[vocab.stoi["30-something"], :].detach(),
                  enc.weight[vocab.stoi["xxunk"], :].detach()))
