# source: variant of https://github.com/chaoyuaw/pytorch-vcii/issues/1
# scenario: rerun
# order: 0 1 2 3 4 4
# cause: recurrent_state_not_detached
# root: cell 3 line 2
# expert: train.py calls init_lstm at the start of every batch because, as the author answers in the issue, these are ConvLSTM hidden states that must start from zero for each sequence; split over cells, the "Init LSTM states" cell runs once and re-running the training-step cell feeds the encoder/decoder the states left by the previous batch, whose graph that batch's loss.backward() already freed. Re-initialise the LSTM states inside the training step (init_lstm per batch, as in train.py).
# %%
import time
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torch.optim.lr_scheduler as LS
from torch.autograd import Variable

torch.manual_seed(0)
# train_options.py, scaled down; no video context (v_compress off), so no U-net
args = SimpleNamespace(batch_size=2, num_crops=1, iterations=3, bits=4, lr=0.00025, clip=0.5,
                       schedule='50000,60000', gamma=0.5, v_compress=False, stack=False)
# %%
class SignFunction(torch.autograd.Function):
    """functions/sign.py: stochastic binarization, straight-through gradient."""

    @staticmethod
    def forward(ctx, input, is_training=True):
        if is_training:
            prob = input.new(input.size()).uniform_()
            x = input.clone()
            x[(1 - input) / 2 <= prob] = 1
            x[(1 - input) / 2 > prob] = -1
            return x
        else:
            return input.sign()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


class Sign(nn.Module):
    def forward(self, x):
        return SignFunction.apply(x, self.training)


class ConvLSTMCell(nn.Module):
    def __init__(self, input_channels, hidden_channels, kernel_size=3, stride=1, padding=0, hidden_kernel_size=1, bias=True):
        super(ConvLSTMCell, self).__init__()
        self.conv_ih = nn.Conv2d(input_channels, 4 * hidden_channels, kernel_size, stride, padding, bias=bias)
        self.conv_hh = nn.Conv2d(hidden_channels, 4 * hidden_channels, hidden_kernel_size, 1, hidden_kernel_size // 2, bias=bias)

    def forward(self, input, hidden):
        hx, cx = hidden
        gates = self.conv_ih(input) + self.conv_hh(hx)
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        ingate = torch.sigmoid(ingate)
        forgetgate = torch.sigmoid(forgetgate)
        cellgate = torch.tanh(cellgate)
        outgate = torch.sigmoid(outgate)
        cy = (forgetgate * cx) + (ingate * cellgate)
        hy = outgate * torch.tanh(cy)
        return hy, cy


# network.py with 1/16 of the channels
class EncoderCell(nn.Module):
    def __init__(self):
        super(EncoderCell, self).__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, stride=2, padding=1, bias=False)
        self.rnn1 = ConvLSTMCell(4, 16, kernel_size=3, stride=2, padding=1, hidden_kernel_size=1, bias=False)
        self.rnn2 = ConvLSTMCell(16, 32, kernel_size=3, stride=2, padding=1, hidden_kernel_size=1, bias=False)
        self.rnn3 = ConvLSTMCell(32, 32, kernel_size=3, stride=2, padding=1, hidden_kernel_size=1, bias=False)

    def forward(self, input, hidden1, hidden2, hidden3, unet_output1, unet_output2):
        x = self.conv(input)
        hidden1 = self.rnn1(x, hidden1)
        x = hidden1[0]
        hidden2 = self.rnn2(x, hidden2)
        x = hidden2[0]
        hidden3 = self.rnn3(x, hidden3)
        x = hidden3[0]
        return x, hidden1, hidden2, hidden3


class Binarizer(nn.Module):
    def __init__(self, bits):
        super(Binarizer, self).__init__()
        self.conv = nn.Conv2d(32, bits, kernel_size=1, bias=False)
        self.sign = Sign()

    def forward(self, input):
        feat = self.conv(input)
        x = torch.tanh(feat)
        return self.sign(x)


class DecoderCell(nn.Module):
    def __init__(self, bits):
        super(DecoderCell, self).__init__()
        self.conv1 = nn.Conv2d(bits, 32, kernel_size=1, stride=1, padding=0, bias=False)
        self.rnn1 = ConvLSTMCell(32, 32, kernel_size=3, stride=1, padding=1, hidden_kernel_size=1, bias=False)
        self.rnn2 = ConvLSTMCell(8, 32, kernel_size=3, stride=1, padding=1, hidden_kernel_size=1, bias=False)
        self.rnn3 = ConvLSTMCell(8, 16, kernel_size=3, stride=1, padding=1, hidden_kernel_size=3, bias=False)
        self.rnn4 = ConvLSTMCell(4, 8, kernel_size=3, stride=1, padding=1, hidden_kernel_size=3, bias=False)
        self.conv2 = nn.Conv2d(2, 3, kernel_size=1, stride=1, padding=0, bias=False)

    def forward(self, input, hidden1, hidden2, hidden3, hidden4, unet_output1, unet_output2):
        x = self.conv1(input)
        hidden1 = self.rnn1(x, hidden1)
        x = F.pixel_shuffle(hidden1[0], 2)
        hidden2 = self.rnn2(x, hidden2)
        x = F.pixel_shuffle(hidden2[0], 2)
        hidden3 = self.rnn3(x, hidden3)
        x = F.pixel_shuffle(hidden3[0], 2)
        hidden4 = self.rnn4(x, hidden4)
        x = F.pixel_shuffle(hidden4[0], 2)
        x = torch.tanh(self.conv2(x)) / 2
        return x, hidden1, hidden2, hidden3, hidden4


def init_lstm(batch_size, height, width, args):
    """util.py's init_lstm (same 1/16 channel scaling, CPU)."""
    def zeros(c, s):
        return (Variable(torch.zeros(batch_size, c, height // s, width // s)),
                Variable(torch.zeros(batch_size, c, height // s, width // s)))
    encoder_h_1, encoder_h_2, encoder_h_3 = zeros(16, 4), zeros(32, 8), zeros(32, 16)
    decoder_h_1, decoder_h_2, decoder_h_3, decoder_h_4 = zeros(32, 16), zeros(32, 8), zeros(16, 4), zeros(8, 2)
    return (encoder_h_1, encoder_h_2, encoder_h_3,
            decoder_h_1, decoder_h_2, decoder_h_3, decoder_h_4)
# %%
encoder, binarizer, decoder, unet = EncoderCell(), Binarizer(args.bits), DecoderCell(args.bits), None
nets = [encoder, binarizer, decoder]
params = [{'params': net.parameters()} for net in nets]
solver = optim.Adam(params, lr=args.lr)
milestones = [int(s) for s in args.schedule.split(',')]
scheduler = LS.MultiStepLR(solver, milestones=milestones, gamma=args.gamma)

# random 16x16 crops instead of the Kinetics/CDVL frames
train_batches = [[torch.rand(args.batch_size, 3, 16, 16) - 0.5] for _ in range(3)]
train_iter = 0
crops = train_batches[0]
# %%
# Init LSTM states.
(encoder_h_1, encoder_h_2, encoder_h_3,
 decoder_h_1, decoder_h_2, decoder_h_3, decoder_h_4) = init_lstm(
    batch_size=(crops[0].size(0) * args.num_crops), height=crops[0].size(2),
    width=crops[0].size(3), args=args)
# %%
crops = train_batches[train_iter % len(train_batches)]
train_iter += 1
batch_t0 = time.time()
solver.zero_grad()

unet_output1 = unet_output2 = None
res = crops[0]
losses = []
_, _, height, width = res.size()
out_img = torch.zeros(1, 3, height, width) + 0.5

for _ in range(args.iterations):
    encoder_input = res

    # Encode.
    encoded, encoder_h_1, encoder_h_2, encoder_h_3 = encoder(
        encoder_input, encoder_h_1, encoder_h_2, encoder_h_3,
        unet_output1, unet_output2)

    # Binarize.
    codes = binarizer(encoded)

    # Decode.
    (output, decoder_h_1, decoder_h_2, decoder_h_3, decoder_h_4) = decoder(
        codes, decoder_h_1, decoder_h_2, decoder_h_3, decoder_h_4,
        unet_output1, unet_output2)

    res = res - output
    out_img = out_img + output.data
    losses.append(res.abs().mean())

loss = sum(losses) / args.iterations
loss.backward()

for net in [encoder, binarizer, decoder, unet]:
    if net is not None:
        torch.nn.utils.clip_grad_norm_(net.parameters(), args.clip)

solver.step()
scheduler.step()
print('[TRAIN] Iter[{}]; Loss: {:.6f}; Batch: {:.4f} sec'.format(train_iter, loss.item(), time.time() - batch_t0))
