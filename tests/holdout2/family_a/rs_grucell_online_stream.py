# cause: recurrent_state_not_detached
# line: 20
# why: The GRUCell hidden state h is fed back each time step without detach, so the step-t backward reaches the step t-1 graph that was already freed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Online next-step forecasting on a sensor stream, one update per time step.
t_axis = torch.linspace(0, 6, 30)
stream = torch.stack([torch.sin(t_axis), 0.5 * torch.cos(t_axis), 0.1 * t_axis], dim=1)

cell = nn.GRUCell(3, 16)
head = nn.Linear(16, 3)
opt = torch.optim.SGD(list(cell.parameters()) + list(head.parameters()), lr=0.05)
h = torch.zeros(1, 16)
errors = []
for t in range(stream.shape[0] - 1):
    h = cell(stream[t:t + 1], h)
    pred = head(h)
    loss = F.mse_loss(pred, stream[t + 1:t + 2])
    opt.zero_grad()
    loss.backward()
    opt.step()
    errors.append(loss.item())
