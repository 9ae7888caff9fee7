"""graph_kept_alive examples of totals no backward frees: grown by a called function and returned,
added up by an evaluation loop (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

TOTALS_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def train_epoch(batches):
    epoch_loss, epoch_aux = 0, 0
    for x in batches:
        out = model(x)
        loss = out.pow(2).mean()
        aux = out.abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss
        epoch_aux += aux
    return epoch_loss / len(batches), epoch_aux / len(batches)


for epoch in range(3):
    train_loss, train_aux = train_epoch([torch.randn(8, 4) for _ in range(4)])
    print(f"{train_loss:.3f} {train_aux:.3f}")
""", line=17, note="totals a called function grows and returns (the one of a value no backward frees first)", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)


def train_epoch(batches):
    epoch_loss, epoch_aux = 0, 0
    for x in batches:
        out = model(x)
        loss = out.pow(2).mean()
        aux = out.abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.detach()
        epoch_aux += aux.detach()
    return epoch_loss / len(batches), epoch_aux / len(batches)


for epoch in range(3):
    train_loss, train_aux = train_epoch([torch.randn(8, 4) for _ in range(4)])
    print(f"{train_loss:.3f} {train_aux:.3f}")
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
criterion = torch.nn.MSELoss()
batches = [(torch.randn(16, 8), torch.randn(16, 1)) for _ in range(6)]
val_error = 0
for x, y in batches:
    err = criterion(net(x), y)
    val_error += err / len(batches)
print(val_error.item())
""", line=8, note="an evaluation loop adds up errors no backward reads (Hamiltonian-Generative-Networks test loop)", fixed="""\
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
criterion = torch.nn.MSELoss()
batches = [(torch.randn(16, 8), torch.randn(16, 1)) for _ in range(6)]
val_error = 0
for x, y in batches:
    err = criterion(net(x), y).detach()
    val_error += err / len(batches)
print(val_error.item())
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = torch.nn.CrossEntropyLoss()


def train(batches):
    total_loss, correct, total = 0, 0, 0
    for x, y in batches:
        outputs = model(x)
        loss = criterion(outputs, y)
        _, predicted = torch.max(outputs.data, 1)
        total += y.size(0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (predicted == y).sum()
        total_loss += loss
    return total_loss / len(batches), 100 * correct / total


for epoch in range(3):
    avg_loss, acc = train([(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)])
    print(f"{avg_loss:.3f} {acc:.1f}")
""", line=19, note="of the totals the function returns, the one the runtime saw keep the graph (not the count of samples; MVTN)", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
criterion = torch.nn.CrossEntropyLoss()


def train(batches):
    total_loss, correct, total = 0, 0, 0
    for x, y in batches:
        outputs = model(x)
        loss = criterion(outputs, y)
        _, predicted = torch.max(outputs.data, 1)
        total += y.size(0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (predicted == y).sum()
        total_loss += loss.detach()
    return total_loss / len(batches), 100 * correct / total


for epoch in range(3):
    avg_loss, acc = train([(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)])
    print(f"{avg_loss:.3f} {acc:.1f}")
"""),
)
