"""inplace_modified_saved_tensor examples where the saved tensors took more than one write,
and the fix covers each: twin critics, each stepped after its own backward, under an actor
loss through `min(qf_1, qf_2)` (pg-is-all-you-need#30), where every step the runtime found
writing into the saved weights waits for that backward; two slices of one ReLU output each
scaled in place (nflows#89), both written out of place (kept apart: the example modules stay
small)."""
from __future__ import annotations

from ..base import Example

SEVERAL_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
actor = torch.nn.Linear(3, 1)
qf_1, qf_2 = torch.nn.Linear(4, 1), torch.nn.Linear(4, 1)
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
qf_1_opt = torch.optim.Adam(qf_1.parameters(), lr=1e-3)
qf_2_opt = torch.optim.Adam(qf_2.parameters(), lr=1e-3)
for step in range(3):
    state, action, target = torch.randn(8, 3), torch.randn(8, 1), torch.randn(8, 1)
    q_pred = torch.min(qf_1(torch.cat([state, actor(state)], 1)), qf_2(torch.cat([state, actor(state)], 1)))
    qf_1_loss = (qf_1(torch.cat([state, action], 1)) - target).pow(2).mean()
    qf_2_loss = (qf_2(torch.cat([state, action], 1)) - target).pow(2).mean()
    qf_1_opt.zero_grad()
    qf_1_loss.backward()
    qf_1_opt.step()
    qf_2_opt.zero_grad()
    qf_2_loss.backward()
    qf_2_opt.step()
    actor_loss = -q_pred.mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
""", line=15, note="twin critics: both critics' steps wait for the actor's backward", fixed="""\
import torch
torch.manual_seed(0)
actor = torch.nn.Linear(3, 1)
qf_1, qf_2 = torch.nn.Linear(4, 1), torch.nn.Linear(4, 1)
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
qf_1_opt = torch.optim.Adam(qf_1.parameters(), lr=1e-3)
qf_2_opt = torch.optim.Adam(qf_2.parameters(), lr=1e-3)
for step in range(3):
    state, action, target = torch.randn(8, 3), torch.randn(8, 1), torch.randn(8, 1)
    q_pred = torch.min(qf_1(torch.cat([state, actor(state)], 1)), qf_2(torch.cat([state, actor(state)], 1)))
    qf_1_loss = (qf_1(torch.cat([state, action], 1)) - target).pow(2).mean()
    qf_2_loss = (qf_2(torch.cat([state, action], 1)) - target).pow(2).mean()
    qf_1_opt.zero_grad()
    qf_1_loss.backward()
    qf_2_opt.zero_grad()
    qf_2_loss.backward()
    actor_loss = -q_pred.mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    qf_1_opt.step()
    qf_2_opt.step()
    actor_opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.ReLU())
opt = torch.optim.SGD(net.parameters(), lr=0.1)

def spline_params(x):
    params = net(x)
    widths, heights = params[:, :4], params[:, 4:]
    widths /= 2.0
    heights /= 2.0
    return widths.softmax(-1), heights.softmax(-1)

for step in range(3):
    w, h = spline_params(torch.randn(16, 2))
    loss = (w * h).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=10, note="two slices of one saved output, each scaled in place: both written out of place", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.ReLU())
opt = torch.optim.SGD(net.parameters(), lr=0.1)

def spline_params(x):
    params = net(x)
    widths, heights = params[:, :4], params[:, 4:]
    widths = widths / 2.0
    heights = heights / 2.0
    return widths.softmax(-1), heights.softmax(-1)

for step in range(3):
    w, h = spline_params(torch.randn(16, 2))
    loss = (w * h).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)

class Memory(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 8)
        self.register_buffer("bank", torch.randn(8, 32))
        self.ptr = 0

    @torch.no_grad()
    def push(self, keys):
        self.bank[:, self.ptr:self.ptr + 4] = keys.T
        self.ptr = (self.ptr + 4) % 32

    def forward(self, x):
        q = self.proj(x)
        scores = torch.einsum("nc,ck->nk", [q, self.bank])
        self.push(q.detach())
        return scores

def train(model, opt, steps):
    for step in range(steps):
        scores = model(torch.randn(4, 4))
        loss = scores.logsumexp(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

model = Memory()
train(model, torch.optim.SGD(model.parameters(), lr=0.1), 3)
""", line=13, note="a memory bank (a buffer) written slice by slice after the forward that saved it; "
                  "no parameter has its shape (facebookresearch/moco#21)", fixed="""\
import torch
torch.manual_seed(0)

class Memory(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 8)
        self.register_buffer("bank", torch.randn(8, 32))
        self.ptr = 0

    @torch.no_grad()
    def push(self, keys):
        self.bank = self.bank.clone()
        self.bank[:, self.ptr:self.ptr + 4] = keys.T
        self.ptr = (self.ptr + 4) % 32

    def forward(self, x):
        q = self.proj(x)
        scores = torch.einsum("nc,ck->nk", [q, self.bank])
        self.push(q.detach())
        return scores

def train(model, opt, steps):
    for step in range(steps):
        scores = model(torch.randn(4, 4))
        loss = scores.logsumexp(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

model = Memory()
train(model, torch.optim.SGD(model.parameters(), lr=0.1), 3)
"""),
)
