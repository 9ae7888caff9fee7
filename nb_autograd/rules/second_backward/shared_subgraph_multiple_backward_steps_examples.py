"""shared_subgraph_multiple_backward examples of one update's losses, one per time step of a
carried state; and each task's gradient read with autograd.grad to weigh the tasks before the
weighted loss is backpropagated, every pass through one forward (kept apart: the example
modules stay small)."""
from __future__ import annotations

from ..base import Example

PER_STEP_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
enc = torch.nn.GRU(4, 8, batch_first=True)
dec = torch.nn.GRUCell(4, 8)
out_layer = torch.nn.Linear(8, 4)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters(), *out_layer.parameters()], lr=1e-3)
src, tgt = torch.randn(2, 5, 4), torch.randn(2, 6, 4)
for epoch in range(2):
    opt.zero_grad()
    _, h = enc(src)
    h = h[0]
    for t in range(tgt.shape[1] - 1):
        h = dec(tgt[:, t], h)
        loss = torch.nn.functional.mse_loss(out_layer(h), tgt[:, t + 1])
        loss.backward()
    opt.step()
""", line=15, note="a decoder's loss per time step, one optimizer step after the loop: not truncated BPTT", fixed="""\
import torch
torch.manual_seed(0)
enc = torch.nn.GRU(4, 8, batch_first=True)
dec = torch.nn.GRUCell(4, 8)
out_layer = torch.nn.Linear(8, 4)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters(), *out_layer.parameters()], lr=1e-3)
src, tgt = torch.randn(2, 5, 4), torch.randn(2, 6, 4)
for epoch in range(2):
    opt.zero_grad()
    _, h = enc(src)
    h = h[0]
    total_loss = 0
    for t in range(tgt.shape[1] - 1):
        h = dec(tgt[:, t], h)
        loss = torch.nn.functional.mse_loss(out_layer(h), tgt[:, t + 1])
        total_loss = total_loss + loss
    total_loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
    out = model(x)
    task1, task2 = F.cross_entropy(out, y), out.pow(2).mean()
    g1 = torch.autograd.grad(task1, model.weight)[0]
    g2 = torch.autograd.grad(task2, model.weight)[0]
    w = (g2.norm() / (g1.norm() + g2.norm())).item()
    loss = w * task1 + (1 - w) * task2
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=11, note="each task's gradient weighs the tasks (GradNorm-like): every grad call keeps the graph for the weighted loss", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
    out = model(x)
    task1, task2 = F.cross_entropy(out, y), out.pow(2).mean()
    g1 = torch.autograd.grad(task1, model.weight, retain_graph=True)[0]
    g2 = torch.autograd.grad(task2, model.weight, retain_graph=True)[0]
    w = (g2.norm() / (g1.norm() + g2.norm())).item()
    loss = w * task1 + (1 - w) * task2
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)

PER_STEP_GOOD = (
    Example(code="""\
import torch
torch.manual_seed(0)
enc = torch.nn.GRU(4, 8, batch_first=True)
dec = torch.nn.GRUCell(4, 8)
out_layer = torch.nn.Linear(8, 4)
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters(), *out_layer.parameters()], lr=1e-3)
src, tgt = torch.randn(2, 5, 4), torch.randn(2, 6, 4)
for epoch in range(2):
    opt.zero_grad()
    _, h = enc(src)
    h = h[0]
    total_loss = 0
    for t in range(tgt.shape[1] - 1):
        h = dec(tgt[:, t], h)
        loss = torch.nn.functional.mse_loss(out_layer(h), tgt[:, t + 1])
        total_loss = total_loss + loss
    total_loss.backward()
    opt.step()
"""),
)
