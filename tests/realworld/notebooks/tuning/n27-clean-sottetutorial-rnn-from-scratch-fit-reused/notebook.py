# source: https://github.com/sotte/pytorch_tutorial/blob/master/notebooks/rnn_from_scratch.py (the tutorial's "RNN from scratch" notebook, taken from fast.ai: a 3-character language model trained with a fit() function defined once in an earlier cell and called again for each new CharModel, the unrolled one, the one with an explicit zero initial hidden state and the looped one; a seeded random text over a small alphabet stands in for nietzsche.txt, which the notebook downloads; device fixed to CPU)
# scenario: clean
# expert: nothing to fix: fit() builds the prediction and the loss from each batch inside its loop, and every model starts its hidden state from zeros inside forward(), so no graph outlives a backward.
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
class CharModel(nn.Module):
    def __init__(self, n_vocab, n_embedding, n_hidden):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, n_embedding)
        self.lin_in = nn.Linear(n_embedding, n_hidden)
        
        self.lin_hidden = nn.Linear(n_hidden, n_hidden)
        self.lin_out = nn.Linear(n_hidden, n_vocab)
        
    def forward(self, X):
        c1, c2, c3 = X[:, 0], X[:, 1], X[:, 2]
        
        in1 = F.relu(self.lin_in(self.emb(c1)))
        h = F.tanh(self.lin_hidden(in1))
                   
        in2 = F.relu(self.lin_in(self.emb(c2)))
        h = F.tanh(self.lin_hidden(h + in2))
        
        in3 = F.relu(self.lin_in(self.emb(c3)))
        h = F.tanh(self.lin_hidden(h + in3))
        
        return F.log_softmax(self.lin_out(h), dim=-1)
# %%
n_embedding = 40
n_hidden = 256

model = CharModel(n_alphabet, n_embedding=40, n_hidden=128)
model = model.to(device)
# %%
optimizer = optim.Adam(model.parameters(), 0.001)
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
fit(model, 2)
# %%
def predict(word):
    word_idx = [char2index[c] for c in word]
    word_idx
    with torch.no_grad():
        X = torch.tensor(word_idx).unsqueeze(0).to(device)
        model.eval()
        y_ = model(X).cpu()
    pred = index2char[torch.argmax(y_).item()]
    print(f"{word} --> '{pred}'")
# %%
predict("the")
# %%
predict("wom")
# %%
class CharModel(nn.Module):
    def __init__(self, n_vocab, n_embedding, n_hidden):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, n_embedding)
        self.lin_in = nn.Linear(n_embedding, n_hidden)
        self.lin_hidden = nn.Linear(n_hidden, n_hidden)
        self.lin_out = nn.Linear(n_hidden, n_vocab)
        
        self.n_hidden = n_hidden
        
    def forward(self, X):
        c1, c2, c3 = X[:, 0], X[:, 1], X[:, 2]
        
        in1 = F.relu(self.lin_in(self.emb(c1)))       
        in2 = F.relu(self.lin_in(self.emb(c2)))
        in3 = F.relu(self.lin_in(self.emb(c3)))
        
        h = torch.zeros(X.shape[0], n_hidden, requires_grad=True).to(device)
        h = F.tanh(self.lin_hidden(h + in1))
        h = F.tanh(self.lin_hidden(h + in2))
        h = F.tanh(self.lin_hidden(h + in3))
        
        return F.log_softmax(self.lin_out(h), dim=-1)
# %%
model = CharModel(n_alphabet, n_embedding=n_embedding, n_hidden=n_hidden).to(device)
fit(model)

print()
predict("the")
predict("wom")
predict("man")
predict("hum")
# %%
class CharModel(nn.Module):
    def __init__(self, n_vocab, n_embedding, n_hidden):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, n_embedding)
        self.lin_in = nn.Linear(n_embedding, n_hidden)
        self.lin_hidden = nn.Linear(n_hidden, n_hidden)
        self.lin_out = nn.Linear(n_hidden, n_vocab)
        
        self.n_hidden = n_hidden
        
    def forward(self, X):
        h = torch.zeros(X.shape[0], n_hidden, requires_grad=True).to(device)
        for i in range(X.shape[1]):
            c = X[:, i]
            in_ = F.relu(self.lin_in(self.emb(c)))
            h = F.tanh(self.lin_hidden(h + in_))

        return F.log_softmax(self.lin_out(h), dim=-1)
# %%
model = CharModel(n_alphabet, n_embedding=n_embedding, n_hidden=n_hidden).to(device)
fit(model)

print()
predict("the")
predict("wom")
predict("man")
predict("hum")
# %%
predict("the huma")
# %%
predict("those of u")
