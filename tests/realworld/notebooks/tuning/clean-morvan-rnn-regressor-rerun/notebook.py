# source: https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents-notebooks/403_RNN_regressor.ipynb
# scenario: clean
# order: 0 1 2 3 4 4
# expert: none needed: the hidden state lives across cells and re-runs of the training cell, but it is repacked (detached) right after every forward
# %%
import torch
from torch import nn
from torch.autograd import Variable
import numpy as np
torch.manual_seed(0)    # reproducible
TIME_STEP = 10      # rnn time step
INPUT_SIZE = 1      # rnn input size
LR = 0.02           # learning rate
# %%
class RNN(nn.Module):
    def __init__(self):
        super(RNN, self).__init__()
        self.rnn = nn.RNN(input_size=INPUT_SIZE, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        outs = []
        for time_step in range(r_out.size(1)):
            outs.append(self.out(r_out[:, time_step, :]))
        return torch.stack(outs, dim=1), h_state
# %%
rnn = RNN()
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
loss_func = nn.MSELoss()
# %%
h_state = None      # for initial hidden state
# %%
for step in range(20):
    start, end = step * np.pi, (step + 1) * np.pi
    steps = np.linspace(start, end, TIME_STEP, dtype=np.float32)
    x_np = np.sin(steps)
    y_np = np.cos(steps)
    x = torch.from_numpy(x_np[np.newaxis, :, np.newaxis])
    y = torch.from_numpy(y_np[np.newaxis, :, np.newaxis])

    prediction, h_state = rnn(x, h_state)
    # repack the hidden state, break the connection from last iteration
    h_state = Variable(h_state.data)

    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
