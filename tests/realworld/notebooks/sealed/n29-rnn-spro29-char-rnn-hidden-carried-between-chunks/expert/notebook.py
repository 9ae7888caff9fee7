# source: variant of https://github.com/spro/practical-pytorch/pull/29 (the PR wanted to stop summing the per-character losses of the char-RNN training step; the author answered "for RNNs we *need* the entire graph in order to backpropagate through time", i.e. backpropagation runs through the whole unrolled chunk). The code cells of char-rnn-generation/char-rnn-generation.ipynb (c520c52), changed the way one does to let the network read the text as one stream: train() takes the hidden state and returns it instead of calling decoder.init_hidden() per chunk, the hidden state is made once in the setup cell (the training cell of the notebook split into a setup cell and a loop cell) and carried from chunk to chunk. _stub_unidecode.py stands in for unidecode, a short Shakespeare excerpt next to the notebook instead of ../data/shakespeare.txt, random and torch seeded, loss.item() and target[c].unsqueeze(0) for current PyTorch, 40 epochs instead of 2000
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 9 line 6
# expert: The hidden state made in the setup cell is handed back by train() still attached to the chunk's graph, and the loop cell passes it into the next chunk; the first loss.backward() frees that graph, so the second chunk's backward runs into it and fails. Backpropagation through time is meant to stop at the chunk boundary (the graph the author says BPTT needs is the one unrolled over one chunk): carry the values but not the graph, loss, hidden = train(*random_training_set(), hidden.detach()) (or hidden = hidden.detach() at the top of train), or start every chunk from decoder.init_hidden() as the notebook does.
# %%
from _stub_unidecode import unidecode  # stands in for: import unidecode
import string
import random
import re

random.seed(0)
all_characters = string.printable
n_characters = len(all_characters)

file = unidecode(open('shakespeare.txt').read())
file_len = len(file)
print('file_len =', file_len)
# %%
chunk_len = 200

def random_chunk():
    start_index = random.randint(0, file_len - chunk_len)
    end_index = start_index + chunk_len + 1
    return file[start_index:end_index]

print(random_chunk())
# %%
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)

class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, n_layers=1):
        super(RNN, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.n_layers = n_layers
        
        self.encoder = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)
        self.decoder = nn.Linear(hidden_size, output_size)
    
    def forward(self, input, hidden):
        input = self.encoder(input.view(1, -1))
        output, hidden = self.gru(input.view(1, 1, -1), hidden)
        output = self.decoder(output.view(1, -1))
        return output, hidden

    def init_hidden(self):
        return Variable(torch.zeros(self.n_layers, 1, self.hidden_size))
# %%
# Turn string into list of longs
def char_tensor(string):
    tensor = torch.zeros(len(string)).long()
    for c in range(len(string)):
        tensor[c] = all_characters.index(string[c])
    return Variable(tensor)

print(char_tensor('abcDEF'))
# %%
def random_training_set():    
    chunk = random_chunk()
    inp = char_tensor(chunk[:-1])
    target = char_tensor(chunk[1:])
    return inp, target
# %%
def evaluate(prime_str='A', predict_len=100, temperature=0.8):
    hidden = decoder.init_hidden()
    prime_input = char_tensor(prime_str)
    predicted = prime_str

    # Use priming string to "build up" hidden state
    for p in range(len(prime_str) - 1):
        _, hidden = decoder(prime_input[p], hidden)
    inp = prime_input[-1]
    
    for p in range(predict_len):
        output, hidden = decoder(inp, hidden)
        
        # Sample from the network as a multinomial distribution
        output_dist = output.data.view(-1).div(temperature).exp()
        top_i = torch.multinomial(output_dist, 1)[0]
        
        # Add predicted character to string and use as next input
        predicted_char = all_characters[top_i]
        predicted += predicted_char
        inp = char_tensor(predicted_char)

    return predicted
# %%
import time, math

def time_since(since):
    s = time.time() - since
    m = math.floor(s / 60)
    s -= m * 60
    return '%dm %ds' % (m, s)
# %%
def train(inp, target, hidden):
    decoder.zero_grad()
    loss = 0

    for c in range(chunk_len):
        output, hidden = decoder(inp[c], hidden)
        loss += criterion(output, target[c].unsqueeze(0))

    loss.backward()
    decoder_optimizer.step()

    return loss.item() / chunk_len, hidden
# %%
n_epochs = 40
print_every = 20
plot_every = 10
hidden_size = 100
n_layers = 1
lr = 0.005

decoder = RNN(n_characters, hidden_size, n_characters, n_layers)
decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=lr)
criterion = nn.CrossEntropyLoss()
hidden = decoder.init_hidden()  # one hidden state, carried from chunk to chunk
# %%
start = time.time()
all_losses = []
loss_avg = 0

for epoch in range(1, n_epochs + 1):
    loss, hidden = train(*random_training_set(), hidden.detach())
    loss_avg += loss

    if epoch % print_every == 0:
        print('[%s (%d %d%%) %.4f]' % (time_since(start), epoch, epoch / n_epochs * 100, loss))
        print(evaluate('Wh', 100), '\n')

    if epoch % plot_every == 0:
        all_losses.append(loss_avg / plot_every)
        loss_avg = 0
