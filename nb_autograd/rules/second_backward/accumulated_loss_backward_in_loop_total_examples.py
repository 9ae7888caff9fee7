"""accumulated_loss_backward_in_loop examples whose total outlives the loop body: a second pass
adding to what the first pass backpropagated, a total declared global in the function (kept
apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

TOTAL_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(3, 4)
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for t in range(2):
        loss += model(x)[:, t].abs().mean()
    loss.backward()
    opt.step()
""", line=14, note="a second pass adds to the total the first pass already backpropagated", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(3, 4)
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss = 0
    for t in range(2):
        loss += model(x)[:, t].abs().mean()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = 0

def train(x):
    global loss
    for row in x:
        loss += model(row).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

for _ in range(2):
    train(torch.randn(4, 3))
""", line=4, note="a total declared global in the function that backpropagates it (char-RNN tutorial variant)", fixed="""\
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = 0

def train(x):
    loss = 0
    for row in x:
        loss += model(row).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

for _ in range(2):
    train(torch.randn(4, 3))
"""),
)
