# source: https://github.com/Coderx7/A-Quick-and-Simple-Pytorch-Tutorial/blob/master/recurrent%20neural%20networks.py (the tutorial's #%% cells for the character-level lstm_char text generator; the author's comment at the training loop records that without detaching hidden_states "we will get a long error like this: RuntimeError: Trying to backward through the graph a second time ..."; here the training cell is as it reads without that detach. A seeded random lower-case text stands in for the downloaded Gutenberg book; cpu, hidden_size 32, batch_size 8, 1 epoch)
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 4 line 38
# expert: hidden_states returned by the LSTM for one batch is fed as the initial state of the next batch with its graph attached, so the second loss.backward() runs back into the previous batch's graph, already freed. As the tutorial does (truncated BPTT), cut the state from its history after each forward: hidden_states = tuple(h.data for h in hidden_states) for the LSTM (hidden_states.data for RNN/GRU)
# %%
import os,sys
import numpy as np
import string

import torch
import torch.nn as nn 
import torch.nn.functional as F 
import torch.optim as optim  

torch.manual_seed(0)
print(f'{torch.__version__=}')
# %%
# stand-in for the downloaded ebook (http://www.gutenberg.org/files/1399/1399-0.txt)
rng = np.random.default_rng(0)
words = ['anna', 'levin', 'said', 'the', 'and', 'she', 'he', 'was', 'not', 'that', 'with', 'her']
corpus_raw = ' '.join(rng.choice(words, size=500)) + '.\n'

corpus_raw = corpus_raw.translate(str.maketrans('','',string.punctuation))
# we can now filter out the other escape characters!
# by only selecting the printable ones!
corpus_raw = ''.join(x for x in corpus_raw if x in set(string.printable))
# and finally making all characters lower case
corpus_raw = corpus_raw.lower()

unique_chars = set(corpus_raw)
# lets sort it for better visualization
unique_chars = sorted(unique_chars)
# now lets create a char2int and int2char dictionaries!
int2char = dict(enumerate(unique_chars))
char2int = {c:d for d,c in int2char.items()}
# lets convert our corpus to int
corpus_digitized = torch.tensor([char2int[char] for char in corpus_raw])
print(f'{corpus_digitized.shape=}')

def one_hot(array, length=10):
    one_hot_array = torch.zeros(size=(array.numel(), length), dtype=torch.float32)
    one_hot_array[torch.arange(array.numel()), array.flatten().long()] = 1
    # reshape the onehotvector to the original shape of input
    # this is to basically get sth like (b,t,c) 
    return one_hot_array.view(*array.shape, length)
# %%
# now we need to have batches! 
def get_next_batch(corpus_digitized, batch_size=1, seq_len=10):
    # lets create batches from our corpus, first lets see
    # how many batches we can get from our corpus
    char_count = corpus_digitized.size(0)
    # calculate how many characters can fit in a batch given the sequence-length
    each_batch_size = batch_size*seq_len
    # we can have this many batches
    batch_count = char_count // each_batch_size
    # now we should reshape our corpus data for easier access
    corpus = corpus_digitized[:batch_count * each_batch_size]
    # reshape it into having a batch-dim
    corpus = corpus.reshape(batch_size, -1)
    x = torch.zeros(size=(batch_size, seq_len), dtype=torch.uint8)
    y = torch.zeros_like(x)

    # preparing new input by reading seq_len from corpus each time
    # note the try block is there to fill the labels for the last batch
    for i in range(0, corpus.size(1), seq_len):
        x[...] = corpus[:, i:i+seq_len]
        try :
            y[:, :-1] = x[:, 1:]
            y[:, -1] = corpus[:, i+seq_len]
        except:
            y[:, :-1] = x[:, 1:]
            y[:, -1] = corpus[:, 0]
        yield x,y

x,y = next(iter(get_next_batch(corpus_digitized,batch_size=3,seq_len=8)))
one_hot_x = one_hot(x, length=len(unique_chars))
print(f'{one_hot_x.shape=}')
# %%
class lstm_char(nn.Module):
    def __init__(self, rnn_type='rnn', unique_chars=110, hidden_size=30,
                 num_layers=1, dropout=0.3, bidirection =False, act='tanh'):
        super().__init__()
        
        self.unique_char = unique_chars
        self.int2char = dict(enumerate(self.unique_char))
        self.char2int = {ch:ii for ii,ch in int2char.items()}
        self.input_size = len(unique_chars)
        self.output_size = self.input_size
        self.hidden_size = hidden_size
        self.drp = nn.Dropout(0.3)
        self.rnn_type = rnn_type.lower()

        self.direction = 2 if bidirection else 1

        if rnn_type.lower() == 'rnn':
            self.rnn = nn.RNN(self.input_size,
                            hidden_size,
                            num_layers,
                            batch_first=True,
                            dropout=dropout,
                            bidirectional=bidirection)
        
        elif rnn_type.lower() == 'gru':
            self.rnn = nn.GRU(self.input_size,
                            hidden_size,
                            num_layers,
                            batch_first=True,
                            dropout=dropout,
                            bidirectional=bidirection)
        else:
            self.rnn = nn.LSTM(self.input_size,
                            hidden_size,
                            num_layers,
                            batch_first=True,
                            dropout=dropout,
                            bidirectional=bidirection)
        
        self.fc = nn.Linear(hidden_size*self.direction, self.output_size)
    
    def forward(self, input, hidden_states):
        rnn_outputs, hidden_states = self.rnn(input,hidden_states)
        outputs = rnn_outputs.reshape(-1, self.hidden_size*self.direction)
        outputs = self.drp(outputs)
        outputs = self.fc(outputs)
        return outputs, hidden_states


# lets test our newtork 
seq_len = 30
data, labels = next(iter(get_next_batch(corpus_digitized, batch_size=2, seq_len=seq_len)))
data = one_hot(data, length=len(unique_chars))
labels = one_hot(labels, length=len(unique_chars))

direction = True
num_layers = 1
model = lstm_char(rnn_type='lstm', 
                  unique_chars=unique_chars,
                  hidden_size=30,
                  num_layers=num_layers,
                  bidirection=direction )

print(f'rnn type : {model.rnn_type}')
outputs, hiddenstates = model(data,None)
print(f'rnn output shape: {outputs.shape}')
# %%
# now lets train our model 
hidden_size = 32
layers_cnt = 2
bidirection = False
rnn_type = 'lstm'
device = 'cpu'
model = lstm_char(rnn_type=rnn_type,
                  unique_chars=unique_chars, 
                  hidden_size=hidden_size,
                  num_layers=layers_cnt, 
                  bidirection=bidirection,dropout=0.5)
model = model.to(device)
optimizer = optim.Adam(model.parameters(), lr = 0.01)
criterion = nn.CrossEntropyLoss()
scheduler = optim.lr_scheduler.StepLR(optimizer,step_size=20)

epochs =1
interval = 100 
batch_size = 8
label_length = len(unique_chars)
hidden_states = None 

val_ratio = 0.2
val_idx = int(corpus_digitized.numel() * (1-val_ratio))
train = corpus_digitized[:val_idx]
val = corpus_digitized[val_idx:]

for e in range(epochs):
    model.train()
    total_loss = 0
    for i, (data, label) in enumerate(get_next_batch(train, batch_size, seq_len=seq_len), start=1):
        
        # one hot encode the data and then feed it to the model
        data = one_hot(data,length=label_length).to(device)
        # label is not one-hot-encoded, crossentropy can do this on its own
        label = label.to(device)

        output , hidden_states = model(data, hidden_states)
     
        if model.rnn_type == 'lstm':
            hidden_states = tuple(h.data for h in hidden_states)
        else:#RNN, GRU
            hidden_states = hidden_states.data 

        label = label.view(batch_size*seq_len).long()
        loss = criterion(output, label)
        total_loss += loss.item()
        
        optimizer.zero_grad()
        loss.backward()
        # note the _, which indicates the inplace operation!
        torch.nn.utils.clip_grad_norm_(model.parameters(),max_norm=5.)
        optimizer.step()

    print(f'Epoch: {e}/{epochs} | Loss: {total_loss/i:.4f}')
    # decay the lr per epochs
    scheduler.step()
