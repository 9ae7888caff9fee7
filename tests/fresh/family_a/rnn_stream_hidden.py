# cause: recurrent_state_not_detached
# line: 19
# why: The RNN hidden state is carried from one window to the next without detach, so the second window's backward re-enters the first window's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rnn = nn.RNN(input_size=3, hidden_size=5, batch_first=True)
head = nn.Linear(5, 1)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.05)
stream = torch.randn(1, 40, 3)
targets = torch.randn(1, 40, 1)

hidden = torch.zeros(1, 1, 5)
for start in range(0, 40, 10):
    x = stream[:, start:start + 10]
    y = targets[:, start:start + 10]
    out, hidden = rnn(x, hidden)
    loss = F.mse_loss(head(out), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(start, loss.item())
