"""no_grad_fn examples whose root only a runtime fact finds: a cache filled under no_grad, a
no_grad forward, a hook storing detached activations, tracking left off for the session, a
closure called from a no_grad step (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

RUNTIME_BAD = (
    Example(code="""\
import torch

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.cached = None

    def forward(self):
        if self.cached is None:
            self.cached = torch.tanh(self.proj.weight)
        return self.cached

enc = Encoder()
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
enc.eval()
with torch.no_grad():
    print(enc().sum())
enc.train()
loss = enc().pow(2).sum()
loss.backward()
""", line=11, note="an evaluation under no_grad filled the module's cache; training reads it back", fixed="""\
import torch

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.cached = None

    def train(self, mode=True):
        if mode and not self.training:  # filled in eval mode under no_grad: recompute it with a graph
            self.cached = None
        return super().train(mode)

    def forward(self):
        if self.cached is None:
            self.cached = torch.tanh(self.proj.weight)
        return self.cached

enc = Encoder()
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
enc.eval()
with torch.no_grad():
    print(enc().sum())
enc.train()
loss = enc().pow(2).sum()
loss.backward()
"""),
    Example(code="""\
import torch

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)

    @torch.no_grad()
    def forward(self, x):
        return self.proj(x)

enc = Encoder().requires_grad_(False)
delta = torch.zeros(1, 4, requires_grad=True)
loss = enc(torch.ones(1, 4) + delta).pow(2).sum()
loss.backward()
""", line=8, note="an input optimised through a frozen module whose forward is decorated no_grad (LLaVA#305)", fixed="""\
import torch

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.proj(x)

enc = Encoder().requires_grad_(False)
delta = torch.zeros(1, 4, requires_grad=True)
loss = enc(torch.ones(1, 4) + delta).pow(2).sum()
loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))

class Recorder:
    def __init__(self):
        self.outputs = []

    def __call__(self, module, inputs, output):
        self.outputs.append(output.detach())

recorder = Recorder()
net[1].register_forward_hook(recorder)
x = torch.randn(3, 4, requires_grad=True)
net(x)
loss = recorder.outputs[0].pow(2).sum()
loss.backward()
""", line=9, note="a forward hook keeps detached activations, and the loss is built from them (bdpy#56)", fixed="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))

class Recorder:
    def __init__(self):
        self.outputs = []

    def __call__(self, module, inputs, output):
        self.outputs.append(output)

recorder = Recorder()
net[1].register_forward_hook(recorder)
x = torch.randn(3, 4, requires_grad=True)
net(x)
loss = recorder.outputs[0].pow(2).sum()
loss.backward()
"""),
    Example(code="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))

class Tap:
    def __init__(self, module):
        self.kept = None
        module.register_forward_hook(self.grab)

    def grab(self, module, inputs, output):
        out = output.detach() if torch.is_tensor(output) else [o.detach() for o in output]
        out = out.flatten(1)
        self.kept = out

tap = Tap(net[1])
x = torch.randn(3, 4, requires_grad=True)
net(x)
loss = tap.kept.pow(2).sum()
loss.backward()
""", line=10, note="the hook detaches into a local and keeps what follows from it (fastai#981, open-genie#6)", fixed="""\
import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))

class Tap:
    def __init__(self, module):
        self.kept = None
        module.register_forward_hook(self.grab)

    def grab(self, module, inputs, output):
        out = output if torch.is_tensor(output) else [o for o in output]
        out = out.flatten(1)
        self.kept = out

tap = Tap(net[1])
x = torch.randn(3, 4, requires_grad=True)
net(x)
loss = tap.kept.pow(2).sum()
loss.backward()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

def train(steps):
    for _ in range(steps):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

with torch.no_grad():
    train(3)
""", line=12, note="the cell that launches training wraps it in no_grad (TranSVAE#11)", fixed="""\
import torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

def train(steps):
    for _ in range(steps):
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

train(3)
"""),
    Example(code="""\
import torch
torch.set_grad_enabled(False)  # set up for inference
model = torch.nn.Linear(3, 1)
x = torch.randn(4, 3)
print(model(x).shape)
loss = model(x).pow(2).mean()
loss.backward()
""", line=2, note="tracking turned off for the session in a set-up cell (grad-cam-pytorch#33)", fixed="""\
import torch
model = torch.nn.Linear(3, 1)
x = torch.randn(4, 3)
print(model(x).shape)
loss = model(x).pow(2).mean()
loss.backward()
"""),
    Example(code="""\
import torch

class Plain(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, {"lr": lr})

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                p.add_(p.grad, alpha=-group["lr"])
        return loss

model = torch.nn.Linear(3, 1)
opt = Plain(model.parameters())
x = torch.randn(4, 3)

def closure():
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss

opt.step(closure)
""", line=9, note="an optimizer's step decorated no_grad calls the closure (HeavyBall#10)", fixed="""\
import torch

class Plain(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        super().__init__(params, {"lr": lr})

    @torch.no_grad()
    def step(self, closure=None):
        with torch.enable_grad():
            loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                p.add_(p.grad, alpha=-group["lr"])
        return loss

model = torch.nn.Linear(3, 1)
opt = Plain(model.parameters())
x = torch.randn(4, 3)

def closure():
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss

opt.step(closure)
"""),
)
