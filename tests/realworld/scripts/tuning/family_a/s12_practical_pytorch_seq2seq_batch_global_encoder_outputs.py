# source: variant of https://github.com/spro/practical-pytorch/issues/27 (vijendra-rana's batched seq2seq code linked there, translation_with_batch.py; output_from_encoder was made by an earlier sanity-check encoder call)
# style: nlp
# cause: computed_before_loop
# line: 132
# expert: train() fills encoder_outputs_for_decoder from the global output_from_encoder (an encoder output computed once, before training) instead of this batch's encoder_outputs, so every batch's loss backpropagates into the first encoder graph, already freed by the first backward. Use the batch's own encoder_outputs, as in spro's batched notebook.
from __future__ import unicode_literals, print_function, division
import random

import torch
import torch.nn as nn
from torch.autograd import Variable
from torch import optim
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
use_cuda = False


class EncoderRNN(nn.Module):
    '''Encoder class for seq2seq'''
    def __init__(self, input_size, batch_size, hidden_size, n_layers=1):
        super(EncoderRNN, self).__init__()
        self.n_layers = n_layers
        self.batch_size = batch_size
        self.hidden_size = hidden_size

        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, input, hidden):
        # input is expected to be (batch_size,input_seq)
        embedded = self.embedding(input).view(-1, self.batch_size, self.hidden_size)
        output = embedded
        for i in range(self.n_layers):
            output, hidden = self.gru(output, hidden)
        return output, hidden

    def initHidden(self):
        result = Variable(torch.zeros(self.n_layers, self.batch_size, self.hidden_size))
        return result


MAX_LENGTH = 10


class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, batch_size, n_layers=1, dropout_p=0.1, max_length=MAX_LENGTH):
        super(AttnDecoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.n_layers = n_layers
        self.dropout_p = dropout_p
        self.max_length = max_length
        self.batch_size = batch_size

        self.embedding = nn.Embedding(self.output_size, self.hidden_size)
        self.attn = nn.Linear(self.hidden_size * 2, self.max_length)
        self.attn_combine = nn.Linear(self.hidden_size * 2, self.hidden_size)
        self.dropout = nn.Dropout(self.dropout_p)
        self.gru = nn.GRU(self.hidden_size, self.hidden_size)
        self.out = nn.Linear(self.hidden_size, self.output_size)

    def forward(self, input, hidden, encoder_outputs):
        embedded = self.embedding(input).view(1, batch_size, -1)  # (1,batch_size,hidden_size)
        embedded = self.dropout(embedded)

        attn_weights = F.softmax(
            self.attn(torch.cat((embedded[0], hidden[0]), 1)), dim=1)

        # bmm needs encoder_outputs as (batch_size,max_len,hidden_size)
        encoder_outputs = encoder_outputs.transpose(1, 0)
        attn_weights = attn_weights.unsqueeze(1)  # (batch_size,1,max_length)
        attn_applied = torch.bmm(attn_weights, encoder_outputs)  # (batch_size,1,hidden_size)
        attn_applied = attn_applied.transpose(0, 1)  # (1, batch_size,hidden_size)

        output = torch.cat((embedded[0], attn_applied[0]), 1)
        output = self.attn_combine(output).unsqueeze(0)

        for i in range(self.n_layers):
            output = F.relu(output)
            output, hidden = self.gru(output, hidden)

        output = F.log_softmax(self.out(output[0]), dim=1)
        return output, hidden, attn_weights

    def initHidden(self):
        result = Variable(torch.zeros(1, batch_size, self.hidden_size))
        return result


def fake_data(no_of_pairs, max_size_len=9, max_vocab=10):
    # 1 is eos, 0 is pad, 2 is sos
    encoding_sentences, decoding_sentences = [], []
    for i in range(no_of_pairs):
        encoding_sentences.append([random.randint(3, max_vocab - 1) for num in range(random.randint(1, max_size_len))])
        decoding_sentences.append([random.randint(3, max_vocab - 1) for num in range(random.randint(1, max_size_len))])
    return encoding_sentences, decoding_sentences


def batchify(pairs_sorted, batch_size):
    num_batches = len(pairs_sorted) // batch_size
    while True:
        for i in range(num_batches):
            pairs_result = pairs_sorted[i:i + batch_size]
            encoding_sentences = [pair[0] for pair in pairs_result]
            max_encoding_length = len(encoding_sentences[-1])
            encoding_sentences = [sentence + [0] * (max_encoding_length - len(sentence)) + [1] for sentence in encoding_sentences]
            encoding_mask = [list(map(lambda a: 0 if a == 0 else 1, sentence)) for sentence in encoding_sentences]

            decoding_sentences = [pair[1] for pair in pairs_result]
            max_decoding_length = len(max(decoding_sentences, key=len))
            decoding_sentences = [sentence + [0] * (max_decoding_length - len(sentence)) + [1] for sentence in decoding_sentences]
            decoding_mask = [list(map(lambda a: 0 if a == 0 else 1, sentence)) for sentence in decoding_sentences]
            yield Variable(torch.LongTensor(encoding_sentences)), Variable(torch.LongTensor(decoding_sentences)), \
                Variable(torch.LongTensor(encoding_mask)), Variable(torch.LongTensor(decoding_mask))
        pairs_sorted = pairs_sorted[::-1]


teacher_forcing_ratio = 0.5


def train(encoder_sentences, decoder_sentences, decoder_mask, encoder, decoder, encoder_optimizer, decoder_optimizer, max_len=MAX_LENGTH):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(encoder_sentences, encoder.initHidden())  # (seq_len,batch_size,hidden_size)

    # the encoder_outputs passed to the decoder have to be (max_len,batch_size,hidden_size)
    encoder_outputs_for_decoder = Variable(torch.zeros(max_len, batch_size, hidden_size))

    for i in range(output_from_encoder.size(0)):
        encoder_outputs_for_decoder[i] = output_from_encoder[i]

    decoder_input = Variable(torch.LongTensor([2] * batch_size)).view(-1, 1)
    decoder_hidden = encoder_hidden

    decoding_len = decoder_sentences.size()[1]

    loss = 0
    use_teacher_forcing = True
    if use_teacher_forcing:
        for i in range(decoding_len):
            output_from_decoder, decoder_hidden, decoder_attention = decoder(decoder_input, decoder_hidden, encoder_outputs_for_decoder)
            tmp = decoder_sentences[:, i].contiguous().view(-1, 1)
            word_loss = output_from_decoder.gather(1, tmp) * decoder_mask[:, i].float().contiguous().view(-1, 1)

            loss += -1 * word_loss.sum()
            decoder_input = decoder_sentences[:, i].contiguous().view(-1, 1)

    loss.backward()

    encoder_optimizer.step()
    decoder_optimizer.step()

    return loss.item() / decoding_len


def train_iters(encoder, decoder, batch_generator, batch_size, num_iters, print_every=1000, learning_rate=0.01):
    print_loss_total = 0

    encoder_optimizer = optim.SGD(encoder.parameters(), lr=learning_rate)
    decoder_optimizer = optim.SGD(decoder.parameters(), lr=learning_rate)

    for iter in range(1, num_iters + 1):
        en_sen, dec_sen, en_mask, dec_mask = next(batch_generator)
        loss = train(en_sen, dec_sen, dec_mask, encoder, decoder, encoder_optimizer, decoder_optimizer)
        print_loss_total += loss
        if iter % print_every == 0:
            print('iter %d loss %.4f' % (iter, print_loss_total / print_every))
            print_loss_total = 0


batch_size = 4
hidden_size = 32
n_layers = 1
input_size = 10
encoder = EncoderRNN(input_size, hidden_size=hidden_size, batch_size=batch_size)

output_size = 10
attn_decoder1 = AttnDecoderRNN(hidden_size, output_size, 1, dropout_p=0.1)

encoding_sentences, decoding_sentences = fake_data(32)
pairs_sorted = sorted(zip(encoding_sentences, decoding_sentences), key=lambda p: len(p[0]))

# batch generator
batch_gen = batchify(pairs_sorted, batch_size)

# sanity check of the encoder on one batch (shape (seq_len,batch,hidden_size))
en_sen, dec_sen, en_mask, dec_mask = next(batchify(pairs_sorted, batch_size))
output_from_encoder, hidden_from_encoder = encoder(en_sen, encoder.initHidden())
print(output_from_encoder.size())

train_iters(encoder, attn_decoder1, batch_gen, batch_size, 4, print_every=2)
