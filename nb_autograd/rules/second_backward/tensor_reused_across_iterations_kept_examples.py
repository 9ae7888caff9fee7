"""tensor_reused_across_iterations examples of a tensor an object keeps for itself: a loss
module's target, a module's own cache, a replay memory's stored tuples (kept apart: the
example modules stay small)."""
from __future__ import annotations

from ..base import Example

KEPT_BAD = (
    Example(code="""\
import torch
class TargetLoss(torch.nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target

    def forward(self, x):
        return (x - self.target).pow(2).mean()

net = torch.nn.Linear(3, 3)
crit = TargetLoss(net(torch.randn(2, 3)))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(2):
    loss = crit(net(torch.randn(2, 3)))
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=5, note="a loss module keeps the target it was built with, graph attached", fixed="""\
import torch
class TargetLoss(torch.nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, x):
        return (x - self.target).pow(2).mean()

net = torch.nn.Linear(3, 3)
crit = TargetLoss(net(torch.randn(2, 3)))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(2):
    loss = crit(net(torch.randn(2, 3)))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch


class Rotary(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freqs = torch.nn.Parameter(torch.arange(dim) / dim)
        self.register_buffer("cached", None, persistent=False)

    def forward(self, t):
        if self.cached is not None:
            return self.cached
        freqs = t[:, None] * self.freqs
        self.register_buffer("cached", freqs, persistent=False)
        return freqs


rot, head = Rotary(4), torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*rot.parameters(), *head.parameters()], lr=0.1)
for step in range(2):
    loss = head(rot(torch.arange(3.0)).sin()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=14, note="a module caches a tensor on itself in its forward (a named buffer); the runtime finds it stale", fixed="""\
import torch


class Rotary(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freqs = torch.nn.Parameter(torch.arange(dim) / dim)
        self.register_buffer("cached", None, persistent=False)

    def forward(self, t):
        if self.cached is not None:
            return self.cached
        freqs = t[:, None] * self.freqs
        self.register_buffer("cached", freqs.detach(), persistent=False)
        return freqs


rot, head = Rotary(4), torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*rot.parameters(), *head.parameters()], lr=0.1)
for step in range(2):
    loss = head(rot(torch.arange(3.0)).sin()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class Memory:
    def __init__(self):
        self.memory = []

    def store_transition(self, state, log_prob, reward):
        self.memory.append((state, log_prob, reward))


class Agent:
    def __init__(self):
        self.policy = torch.nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.policy.parameters(), lr=0.01)
        self.memory = Memory()

    def act(self, state):
        self.log_prob = torch.log_softmax(self.policy(state), -1)[0]
        return 0

    def remember(self, state, reward):
        self.memory.store_transition(state, self.log_prob, reward)

    def learn(self):
        loss = sum(-lp * (r - self.policy(s).mean()) for s, lp, r in self.memory.memory)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


agent = Agent()
for step in range(3):
    state = torch.randn(4)
    agent.act(state)
    agent.remember(state, 1.0)
    agent.learn()
""", line=24, note="a replay memory keeps the log-probabilities it is handed, with their graphs", fixed="""\
import torch
torch.manual_seed(0)


class Memory:
    def __init__(self):
        self.memory = []

    def store_transition(self, state, log_prob, reward):
        self.memory.append((state, log_prob, reward))


class Agent:
    def __init__(self):
        self.policy = torch.nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.policy.parameters(), lr=0.01)
        self.memory = Memory()

    def act(self, state):
        self.log_prob = torch.log_softmax(self.policy(state), -1)[0]
        return 0

    def remember(self, state, reward):
        self.memory.store_transition(state, self.log_prob.detach(), reward)

    def learn(self):
        loss = sum(-lp * (r - self.policy(s).mean()) for s, lp, r in self.memory.memory)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


agent = Agent()
for step in range(3):
    state = torch.randn(4)
    agent.act(state)
    agent.remember(state, 1.0)
    agent.learn()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class LabelEncoder(torch.nn.Module):
    def __init__(self, names):
        super().__init__()
        self.names = names
        self.table = torch.nn.Embedding(len(names), 4)
        self.cache = {}

    def forward(self):
        new = [n for n in self.names if n not in self.cache]
        if new:
            embeds = self.table(torch.tensor([self.names.index(n) for n in new]))
            self.cache.update(dict(zip(new, embeds)))
        return torch.stack([self.cache[n] for n in self.names])


encoder = LabelEncoder(["cat", "dog"])
head = torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
for step in range(3):
    loss = head(encoder()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=16, note="a trained module memoises its own outputs", fixed="""\
import torch
torch.manual_seed(0)


class LabelEncoder(torch.nn.Module):
    def __init__(self, names):
        super().__init__()
        self.names = names
        self.table = torch.nn.Embedding(len(names), 4)
        self.cache = {}

    def forward(self):
        new = [n for n in self.names if n not in self.cache]
        if new:
            embeds = self.table(torch.tensor([self.names.index(n) for n in new]))
            self.cache.update(dict(zip(new, embeds)))
        return torch.stack([self.cache[n] for n in self.names])


encoder = LabelEncoder(["cat", "dog"])
head = torch.nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
for step in range(3):
    loss = head(encoder()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    encoder.cache.clear()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
step_net = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(step_net.parameters(), lr=0.01)


def rollout(start, n):
    state = {"u": start}
    for t in range(n):
        out = {"u": state["u"] + step_net(state["u"])}
        yield out
        state = out


steps = rollout(torch.randn(2, 4), 3)
for t in range(3):  # each step backpropagated as it comes (gradient accumulation)
    loss = next(steps)["u"].pow(2).mean()
    loss.backward()
opt.step()
""", line=12, fixed="""\
import torch
torch.manual_seed(0)
step_net = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(step_net.parameters(), lr=0.01)


def rollout(start, n):
    state = {"u": start}
    for t in range(n):
        out = {"u": state["u"] + step_net(state["u"])}
        yield out
        state = {k: s.detach() for k, s in out.items()}


steps = rollout(torch.randn(2, 4), 3)
for t in range(3):  # each step backpropagated as it comes (gradient accumulation)
    loss = next(steps)["u"].pow(2).mean()
    loss.backward()
opt.step()
""", note="the state a paused generator carries to its next step (ai2cm/ace#544)"),
)
