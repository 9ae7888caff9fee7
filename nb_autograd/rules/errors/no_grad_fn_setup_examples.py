"""no_grad_fn examples of a set-up that training then trips over: an optimizer holding only
frozen parameters (the freeze is the cause even when the loss also reads features computed
under no_grad, as a frozen encoder's are meant to be), named at the freeze of what it trains
when a feature extractor beside it is frozen on purpose; features made under inference_mode, in a
block or by a helper it decorates (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

SETUP_BAD = (
    Example(code="""\
import torch
enc = torch.nn.Linear(6, 4)
clf = torch.nn.Linear(4, 2)
data, labels = torch.randn(20, 6), torch.randint(0, 2, (20,))
with torch.no_grad():
    feats = enc(data)
clf.requires_grad_(False)
opt = torch.optim.SGD(clf.parameters(), lr=0.1)
for epoch in range(2):
    loss = torch.nn.functional.cross_entropy(clf(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=7, note="the classifier the optimizer trains frozen, over features of a frozen encoder", fixed="""\
import torch
enc = torch.nn.Linear(6, 4)
clf = torch.nn.Linear(4, 2)
data, labels = torch.randn(20, 6), torch.randint(0, 2, (20,))
with torch.no_grad():
    feats = enc(data)
clf.requires_grad_(True)
opt = torch.optim.SGD(clf.parameters(), lr=0.1)
for epoch in range(2):
    loss = torch.nn.functional.cross_entropy(clf(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
backbone, head = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)
x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
with torch.inference_mode():
    feats = backbone(x)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for i in range(2):
    loss = torch.nn.functional.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=4, note="features of a frozen backbone made in inference mode, then read by a trained head", fixed="""\
import torch
backbone, head = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)
x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
with torch.no_grad():
    feats = backbone(x)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for i in range(2):
    loss = torch.nn.functional.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU())
for p in backbone.parameters():
    p.requires_grad = False
head = torch.nn.Linear(8, 2)
for p in head.parameters():
    p.requires_grad = False
x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
opt = torch.optim.SGD(head.parameters(), lr=0.1)
loss = F.cross_entropy(head(backbone(x)), y)
loss.backward()
opt.step()
""", line=8, note="the head's freeze (a copied cell), not the backbone's, which is meant", fixed="""\
import torch
import torch.nn.functional as F
backbone = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU())
for p in backbone.parameters():
    p.requires_grad = False
head = torch.nn.Linear(8, 2)
for p in head.parameters():
    p.requires_grad = True
x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
opt = torch.optim.SGD(head.parameters(), lr=0.1)
loss = F.cross_entropy(head(backbone(x)), y)
loss.backward()
opt.step()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
backbone, head = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)


@torch.inference_mode()
def extract(x):
    return backbone(x)


x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
feats = extract(x)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(2):
    loss = F.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=6, note="a feature helper decorated with inference_mode", fixed="""\
import torch
import torch.nn.functional as F
backbone, head = torch.nn.Linear(6, 4), torch.nn.Linear(4, 2)


@torch.no_grad()
def extract(x):
    return backbone(x)


x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
feats = extract(x)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(2):
    loss = F.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
)
