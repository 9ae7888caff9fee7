"""computed_before_loop examples where the statement before the loop computes nothing itself
(it names a tensor a hook or a call made: `no_grad` around it would cut nothing, a detach
does), a forward before a hand-written update loop, and an encoder's state taken apart before a
decoder's loop while a list of parameters hands the encoder to the optimizer: both statements
move (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

NAMED_BAD = (
    Example(code="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
acts = {}
model[0].register_forward_hook(lambda m, i, o: acts.__setitem__("fc1", o))
x = torch.randn(8, 4)
model(x)
target = acts["fc1"]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    out = model(x)
    loss = (acts["fc1"] - target).pow(2).mean() + out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="a hook's activation named as a target before the loop", fixed="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
acts = {}
model[0].register_forward_hook(lambda m, i, o: acts.__setitem__("fc1", o))
x = torch.randn(8, 4)
model(x)
target = acts["fc1"].detach()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    out = model(x)
    loss = (acts["fc1"] - target).pow(2).mean() + out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
X = torch.randn(20, 3)
Y = X @ torch.tensor([[1.0], [2.0], [-1.0]])
pred = X @ w
for i in range(3):
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
""", line=5, note="the prediction made once, before a loop that updates its weight by hand", fixed="""\
import torch
w = torch.randn(3, 1, requires_grad=True)
X = torch.randn(20, 3)
Y = X @ torch.tensor([[1.0], [2.0], [-1.0]])
for i in range(3):
    pred = X @ w
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad.zero_()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
enc, dec, out = torch.nn.GRU(4, 8, batch_first=True), torch.nn.GRUCell(4, 8), torch.nn.Linear(8, 4)
src, tgt = torch.randn(2, 5, 4), torch.randn(2, 5, 4)
params = [*enc.parameters(), *dec.parameters(), *out.parameters()]
opt = torch.optim.Adam(params, 1e-3)
_, h_enc = enc(src)
h0 = h_enc[0]
for epoch in range(3):
    h, loss = h0, 0
    for t in range(4):
        h = dec(tgt[:, t], h)
        loss = loss + F.mse_loss(out(h), tgt[:, t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=9, note="the encoder is trained through `params`: its forward moves into the loop with the state taken from it", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
enc, dec, out = torch.nn.GRU(4, 8, batch_first=True), torch.nn.GRUCell(4, 8), torch.nn.Linear(8, 4)
src, tgt = torch.randn(2, 5, 4), torch.randn(2, 5, 4)
params = [*enc.parameters(), *dec.parameters(), *out.parameters()]
opt = torch.optim.Adam(params, 1e-3)
for epoch in range(3):
    _, h_enc = enc(src)
    h0 = h_enc[0]
    h, loss = h0, 0
    for t in range(4):
        h = dec(tgt[:, t], h)
        loss = loss + F.mse_loss(out(h), tgt[:, t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
