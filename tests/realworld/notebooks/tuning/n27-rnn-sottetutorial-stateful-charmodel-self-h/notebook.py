# source: variant of https://github.com/sotte/pytorch_tutorial/blob/master/notebooks/rnn_from_scratch.py (the tutorial's looped CharModel and its fit() function, defined in an earlier cell; here the model is made stateful the way the fast.ai lesson the notebook is taken from does with CharSeqStatefulRnn, keeping the last hidden state in self.h and starting the next batch from it, but without fast.ai's repackage_var; a seeded random text over a small alphabet stands in for nietzsche.txt, device fixed to CPU; the criterion cell drops its unused module-level optimizer, since fit() makes its own and the model is created later)
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 13 line 23
# expert: forward() stores the final hidden state in self.h and the next batch starts from it, so the second batch's loss backpropagates into the first batch's graph, which the first loss.backward() inside fit() has already freed. As fast.ai's stateful RNN does with repackage_var(h), keep only the values across batches: self.h = h.detach() (truncated backpropagation through time).
# %%
from pathlib import Path
import numpy as np
# %%
# stands in for reading ../data/raw/nietzsche.txt
rng = np.random.RandomState(0)
words = ["the ", "of ", "and ", "man ", "woman ", "human ", "those ", "truth ", "is ", "a "]
data = "".join(rng.choice(words) for _ in range(600))
# %%
print(data[:140])
# %%
alphabet = ["\0", *sorted(list(set(data)))]
n_alphabet = len(alphabet)
n_alphabet
# %%
char2index = {c: i for i, c in enumerate(alphabet)}
index2char = {i: c for i, c in enumerate(alphabet)}
# %%
index = [char2index[c] for c in data]
# %%
print(index[:25])
print("".join(index2char[i] for i in index[:25]))
# %%
X, y = [], []
for i in range(len(index) - 4):
    X.append(index[i : i + 3])
    y.append(index[i + 3])
    
X = np.stack(X)
y = np.stack(y)
# %%
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


train_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
train_dl = DataLoader(train_ds, batch_size=500)
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
# %%
device = torch.device("cpu")
device
# %%
#criterion = nn.CrossEntropyLoss()
criterion = F.nll_loss
# %%
def fit(model, n_epoch=2):
    optimizer = optim.Adam(model.parameters(), 0.001)
    
    for epoch in range(n_epoch):
        print(f"Epoch {epoch}:")
        running_loss, correct = 0.0, 0

        model.train()
        for X, y in train_dl:
            X, y = X.to(device), y.to(device)
            optimizer.zero_grad()

            y_ = model(X)
            loss = criterion(y_, y)

            loss.backward()
            optimizer.step()

            _, y_label_ = torch.max(y_, 1)
            correct += (y_label_ == y).sum().item()
            running_loss += loss.item() * X.shape[0]

        print(f"  Train Loss: {running_loss / len(train_dl.dataset):0.4f}")
        print(f"  Train Acc:  {correct / len(train_dl.dataset):0.2f}")
# %%
class CharModel(nn.Module):
    def __init__(self, n_vocab, n_embedding, n_hidden):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, n_embedding)
        self.lin_in = nn.Linear(n_embedding, n_hidden)
        self.lin_hidden = nn.Linear(n_hidden, n_hidden)
        self.lin_out = nn.Linear(n_hidden, n_vocab)
        
        self.n_hidden = n_hidden
        self.init_hidden(500)

    def init_hidden(self, bs):
        self.h = torch.zeros(bs, self.n_hidden).to(device)
        
    def forward(self, X):
        # stateful: carry the hidden state over from the previous batch
        if self.h.shape[0] != X.shape[0]: self.init_hidden(X.shape[0])
        h = self.h
        for i in range(X.shape[1]):
            c = X[:, i]
            in_ = F.relu(self.lin_in(self.emb(c)))
            h = F.tanh(self.lin_hidden(h + in_))
        self.h = h

        return F.log_softmax(self.lin_out(h), dim=-1)
# %%
n_embedding = 40
n_hidden = 256

model = CharModel(n_alphabet, n_embedding=n_embedding, n_hidden=n_hidden).to(device)
fit(model)
