"""numpy_on_grad_tensor examples of logs: values kept for a plot or a printout, each entry
still holding its step's graph (a running loss summed from the loss tensor, a list of loss
tensors, activations a hook appends, also when a comprehension walks over them). The fix stores
plain values where they are logged, which also frees the graphs (kept apart: the example modules
stay small)."""
from __future__ import annotations

from ..base import Example

LOGGED_BAD = (
    Example(code="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for epoch in range(3):
    train_loss = 0
    for step in range(2):
        loss = model(torch.randn(8, 3)).pow(2).mean()
        train_loss += loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(train_loss / 2)
curve = np.asarray(history, dtype=float)
""", line=10, note="a logged running loss summed from the loss tensor itself (pytorch-deep-learning#583): "
                        "fixed where it is summed, not where it is plotted", fixed="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for epoch in range(3):
    train_loss = 0
    for step in range(2):
        loss = model(torch.randn(8, 3)).pow(2).mean()
        train_loss += loss.detach()
        opt.zero_grad()
        loss.backward()
        opt.step()
    history.append(train_loss / 2)
curve = np.asarray(history, dtype=float)
"""),
    Example(code="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for step in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    losses.append(loss)
    opt.zero_grad()
    loss.backward()
    opt.step()
history = [sum(losses) / len(losses)]
curve = np.asarray(history, dtype=float)
""", line=8, note="a log of the loss tensors: each entry keeps its step's graph (Lofi#14)", fixed="""\
import numpy as np
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for step in range(3):
    loss = model(torch.randn(8, 3)).pow(2).mean()
    losses.append(loss.detach())
    opt.zero_grad()
    loss.backward()
    opt.step()
history = [sum(losses) / len(losses)]
curve = np.asarray(history, dtype=float)
"""),
    Example(code="""\
import numpy as np
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
acts = []
net[1].register_forward_hook(lambda module, inputs, output: acts.append(output))
for step in range(3):
    loss = net(torch.randn(5, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
mean_activation = np.mean(torch.cat(acts).numpy())
""", line=7, note="activations a hook logs, converted together later: each stored detached", fixed="""\
import numpy as np
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
acts = []
net[1].register_forward_hook(lambda module, inputs, output: acts.append(output.detach()))
for step in range(3):
    loss = net(torch.randn(5, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
mean_activation = np.mean(torch.cat(acts).numpy())
"""),
    Example(code="""\
import numpy as np
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
clients = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
sizes, losses = [], []
for x, y in clients:
    losses.append(torch.nn.functional.mse_loss(model(x), y))
    sizes.append(len(x))
weighted = np.sum([n * l for (n, l) in zip(sizes, losses)]) / np.sum(sizes)
print(float(weighted))
""", line=10, note="per-client losses kept in a list and weighted with NumPy (FedGen's evaluation): each "
                  "item detached where the comprehension reads it", fixed="""\
import numpy as np
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
clients = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
sizes, losses = [], []
for x, y in clients:
    losses.append(torch.nn.functional.mse_loss(model(x), y))
    sizes.append(len(x))
weighted = np.sum([n * l.detach().cpu() for (n, l) in zip(sizes, losses)]) / np.sum(sizes)
print(float(weighted))
"""),
    Example(code="""\
import numpy as np
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
activations = []
model[1].register_forward_hook(lambda m, i, o: activations.append(o))
for epoch in range(3):
    loss = F.mse_loss(model(torch.randn(16, 4)), torch.randn(16, 1))
    opt.zero_grad()
    loss.backward()
    opt.step()
mean_act = np.mean([a.mean().numpy() for a in activations])
""", line=8, note="a comprehension over a hook's log: each entry still holds its step's graph", fixed="""\
import numpy as np
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
activations = []
model[1].register_forward_hook(lambda m, i, o: activations.append(o.detach()))
for epoch in range(3):
    loss = F.mse_loss(model(torch.randn(16, 4)), torch.randn(16, 1))
    opt.zero_grad()
    loss.backward()
    opt.step()
mean_act = np.mean([a.mean().numpy() for a in activations])
"""),
)
