# source: https://pytorch.org/tutorials/intermediate/char_rnn_classification_tutorial.html
# style: rnn
# expert: correct per-example RNN training: a fresh hidden state for every name, rnn.zero_grad() before each backward, manual parameter update p.data.add_(p.grad.data, alpha=-learning_rate), logging with loss.item()
import random
import string

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
all_categories = ['English', 'French', 'Italian']
category_lines = {'English': ['Smith', 'Brown', 'Taylor'], 'French': ['Dubois', 'Lefevre', 'Moreau'],
                  'Italian': ['Rossi', 'Bianchi', 'Romano']}
n_categories = len(all_categories)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.softmax(self.i2o(combined))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 32
rnn = RNN(n_letters, n_hidden, n_categories)
criterion = nn.NLLLoss()
learning_rate = 0.005


def randomTrainingExample():
    category = random.choice(all_categories)
    line = random.choice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    return category, line, category_tensor, lineToTensor(line)


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


current_loss = 0
all_losses = []
for iter in range(1, 61):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if iter % 20 == 0:
        all_losses.append(current_loss / 20)
        print(iter, line, category, '%.4f' % (current_loss / 20))
        current_loss = 0
