# source: https://github.com/vikrant7/mobile-vod-bottleneck-lstm/issues/6
# scenario: clean
# order: 0 1 2 2 2
# expert: none needed: the hidden and cell state are carried from clip to clip but detached (detach_()) after every update, so each re-run of the training cell backpropagates only through its own clip
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class BottleneckLSTMCell(nn.Module):
    """tiny stand-in for the repo's conv bottleneck LSTM cell"""
    def __init__(self, input_channels, hidden_channels):
        super().__init__()
        self.hidden_channels = hidden_channels
        self.W = nn.Conv2d(input_channels + hidden_channels, 4 * hidden_channels, 3, padding=1)

    def forward(self, x, h, c):
        i, f, o, g = torch.split(self.W(torch.cat([x, h], 1)), self.hidden_channels, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c

lstm = BottleneckLSTMCell(4, 8)
head = nn.Conv2d(8, 2, 1)
optimizer = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.01)

def video_clip(seq_len=4):
    return torch.randn(seq_len, 1, 4, 6, 6), torch.randn(seq_len, 1, 2, 6, 6)
# %%
# the state is carried from frame to frame and from one clip to the next
hidden_state = torch.zeros(1, 8, 6, 6)
cell_state = torch.zeros(1, 8, 6, 6)
# %%
frames, targets = video_clip()
optimizer.zero_grad()
loss = 0
for t in range(frames.size(0)):
    hidden_state, cell_state = lstm(frames[t], hidden_state, cell_state)
    loss = loss + ((head(hidden_state) - targets[t]) ** 2).mean()
loss.backward()
optimizer.step()
hidden_state.detach_()
cell_state.detach_()
print(loss.item())
