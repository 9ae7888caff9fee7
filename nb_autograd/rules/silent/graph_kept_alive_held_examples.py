"""graph_kept_alive examples of values kept under names the code builds: an EMA buffer under
a computed name, a history grown from itself on an object, a dict of each step's results, a
statistic a module keeps in an object of the user's class; the fix cuts the stored value loose
where it is written (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

HELD_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)


class Stats(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.register_buffer("feat_mean", torch.zeros(4))

    def ema(self, key, new, decay=0.9):
        value = getattr(self, key) * decay + new * (1 - decay)
        self.register_buffer(key, value)

    def forward(self, x):
        y = self.proj(x)
        self.ema("feat_mean", y.mean(0))
        return y


stats = Stats()
opt = torch.optim.SGD(stats.parameters(), lr=0.1)
for step in range(6):
    loss = stats(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", line=12, note="an EMA buffer stored under a name the code computes (vector-quantize-pytorch PR 57)", fixed="""\
import torch
torch.manual_seed(0)


class Stats(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)
        self.register_buffer("feat_mean", torch.zeros(4))

    def ema(self, key, new, decay=0.9):
        value = (getattr(self, key) * decay + new * (1 - decay)).detach()
        self.register_buffer(key, value)

    def forward(self, x):
        y = self.proj(x)
        self.ema("feat_mean", y.mean(0))
        return y


stats = Stats()
opt = torch.optim.SGD(stats.parameters(), lr=0.1)
for step in range(6):
    loss = stats(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

class Tracker:
    def __init__(self):
        self.trail = torch.zeros(0, 4)

def track(tracker, out):
    trail = torch.cat([tracker.trail, out.mean(0, keepdim=True)])
    tracker.trail = trail[-50:]

tracker = Tracker()
for step in range(20):
    out = model(torch.randn(8, 4))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    track(tracker, out)
""", line=12, note="a history each call extends with its own last value, stored on an object "
                  "(TorchSim/torch-sim PR 559): stored detached", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

class Tracker:
    def __init__(self):
        self.trail = torch.zeros(0, 4)

def track(tracker, out):
    trail = torch.cat([tracker.trail, out.mean(0, keepdim=True)])
    tracker.trail = trail[-50:].detach()

tracker = Tracker()
for step in range(20):
    out = model(torch.randn(8, 4))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    track(tracker, out)
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

def training_step(x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    return {"loss": loss, "metrics": {}, "n": len(x)}

outputs = []
for step in range(12):
    x, y = torch.randn(16, 8), torch.randn(16, 1)
    output = training_step(x, y)
    opt.zero_grad()
    output["loss"].backward()
    opt.step()
    outputs.append(output)
print(sum(o["loss"].item() for o in outputs) / len(outputs))
""", line=17, note="each step's results kept for the epoch's end, a dict whose loss is still attached "
                  "(TRI-ML/packnet-sfm PR 51): its tensors stored detached, the rest as it was", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

def training_step(x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    return {"loss": loss, "metrics": {}, "n": len(x)}

outputs = []
for step in range(12):
    x, y = torch.randn(16, 8), torch.randn(16, 1)
    output = training_step(x, y)
    opt.zero_grad()
    output["loss"].backward()
    opt.step()
    outputs.append({k: v.detach() if torch.is_tensor(v) else v for k, v in output.items()})
print(sum(o["loss"].item() for o in outputs) / len(outputs))
"""),
    Example(code="""\
import torch
torch.manual_seed(0)


class TensorStatistic:
    def __init__(self, size, update_function):
        self._tensor = torch.zeros(size, size)
        self.update_function = update_function

    def update(self):
        update = self.update_function()
        self._tensor = self._tensor + update


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.activity = None
        self.tensor_s = TensorStatistic(4, lambda: self.activity.t() @ self.activity)

    def forward(self, x):
        self.activity = torch.relu(self.fc(x))
        return self.activity


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(8):
    loss = net(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    net.tensor_s.update()
""", line=12, note="a second-moment statistic a module keeps in an object of its own class, fed "
                     "the stored activity (growingnet/gromo#135)", fixed="""\
import torch
torch.manual_seed(0)


class TensorStatistic:
    def __init__(self, size, update_function):
        self._tensor = torch.zeros(size, size)
        self.update_function = update_function

    def update(self):
        update = self.update_function()
        self._tensor = self._tensor + update.detach()


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.activity = None
        self.tensor_s = TensorStatistic(4, lambda: self.activity.t() @ self.activity)

    def forward(self, x):
        self.activity = torch.relu(self.fc(x))
        return self.activity


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(8):
    loss = net(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    net.tensor_s.update()
"""),
    Example(code="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
history = {"loss": [], "pred": []}
for step in range(30):
    pred = model(torch.randn(8, 10))
    loss = pred.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history["loss"].append(loss)
    history["pred"].append(pred)
""", line=12, note="a dict of lists logs each step's loss and output: both keep the one graph", fixed="""\
import torch
model = torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
history = {"loss": [], "pred": []}
for step in range(30):
    pred = model(torch.randn(8, 10))
    loss = pred.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history["loss"].append(loss.detach())
    history["pred"].append(pred.detach())
"""),
)
