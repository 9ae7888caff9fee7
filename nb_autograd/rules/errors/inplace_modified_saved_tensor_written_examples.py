"""inplace_modified_saved_tensor examples where the write comes from elsewhere in the step: a
GAN's discriminator output shared with the generator's loss, slices rewritten from themselves in a
loop, one residual add written in two blocks, a discriminator's step whose optimizer's name says
nothing (`od`: read as an optimizer by what built it), a recurrence written into one tensor
(`H[t + 1] = f(H[t])`: each step computed, then written into a fresh copy) (kept apart: the
example modules stay small)."""
from __future__ import annotations

from ..base import Example

WRITTEN_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1), torch.nn.Sigmoid())
opt_G = torch.optim.Adam(G.parameters(), lr=0.01)
opt_D = torch.optim.Adam(D.parameters(), lr=0.01)
for step in range(2):
    fake = G(torch.randn(8, 2))
    prob_real = D(torch.randn(8, 2) + 2)
    prob_fake = D(fake)
    D_loss = -torch.mean(torch.log(prob_real) + torch.log(1. - prob_fake))
    G_loss = torch.mean(torch.log(1. - prob_fake))
    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)
    opt_D.step()
    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
""", line=15, note="GAN: D's output on the fake is shared by both losses; the generator's loss is computed "
                   "again through the stepped D (pytorch#39141)", fixed="""\
import torch
torch.manual_seed(0)
G = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
D = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1), torch.nn.Sigmoid())
opt_G = torch.optim.Adam(G.parameters(), lr=0.01)
opt_D = torch.optim.Adam(D.parameters(), lr=0.01)
for step in range(2):
    fake = G(torch.randn(8, 2))
    prob_real = D(torch.randn(8, 2) + 2)
    prob_fake = D(fake)
    D_loss = -torch.mean(torch.log(prob_real) + torch.log(1. - prob_fake))
    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)
    opt_D.step()
    prob_fake = D(fake)
    G_loss = torch.mean(torch.log(1. - prob_fake))
    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
"""),
    Example(code="""\
import torch
lin = torch.nn.Linear(4, 4)
w = torch.randn(4, requires_grad=True)
T = torch.relu(torch.randn(2, 3, 4) * w)
for b in range(T.size(0)):
    for t in range(T.size(1)):
        T[b][t] = lin(T[b][t])
T.sum().backward()
""", line=7, note="each slice rewritten from itself in a loop: the loop reads the tensor and writes into one copy "
                  "(pytorch_geometric_temporal#57)", fixed="""\
import torch
lin = torch.nn.Linear(4, 4)
w = torch.randn(4, requires_grad=True)
T = torch.relu(torch.randn(2, 3, 4) * w)
T_in = T
T = T.clone()
for b in range(T.size(0)):
    for t in range(T.size(1)):
        T[b][t] = lin(T_in[b][t])
T.sum().backward()
"""),
    Example(code="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def down(self, x, connection):
        x = torch.sigmoid(self.lin(x))
        x += connection
        return x

    def up(self, x, connection):
        x = torch.sigmoid(self.lin(x))
        x += connection
        return x

kwargs = {}
kwargs['bias'] = True
b = Block()
x = torch.randn(2, 4)
b.up(b.down(x, x), x).sum().backward()
""", line=14, note="one residual add written in two blocks (a dict written by key is no tensor): both "
                   "go out of place (fepegar/unet#36)", fixed="""\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def down(self, x, connection):
        x = torch.sigmoid(self.lin(x))
        x = x + connection
        return x

    def up(self, x, connection):
        x = torch.sigmoid(self.lin(x))
        x = x + connection
        return x

kwargs = {}
kwargs['bias'] = True
b = Block()
x = torch.randn(2, 4)
b.up(b.down(x, x), x).sum().backward()
"""),
    Example(code="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 4), torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.LeakyReLU(0.2), torch.nn.Linear(8, 1))
og = torch.optim.Adam(G.parameters(), 2e-4); od = torch.optim.Adam(D.parameters(), 2e-4)
for it in range(2):
    real, fake = torch.randn(16, 4), G(torch.randn(16, 2))
    d_fake = D(fake)
    d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
    od.zero_grad()
    d_loss.backward()
    od.step()
    g_loss = F.softplus(-d_fake).mean()
    og.zero_grad()
    g_loss.backward()
    og.step()
""", line=12, note="optimizers named `og` / `od`: the step is read as one by what it was built from", fixed="""\
import torch
import torch.nn.functional as F
torch.manual_seed(0)
G, D = torch.nn.Linear(2, 4), torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.LeakyReLU(0.2), torch.nn.Linear(8, 1))
og = torch.optim.Adam(G.parameters(), 2e-4); od = torch.optim.Adam(D.parameters(), 2e-4)
for it in range(2):
    real, fake = torch.randn(16, 4), G(torch.randn(16, 2))
    d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
    od.zero_grad()
    d_loss.backward()
    od.step()
    d_fake = D(fake)
    g_loss = F.softplus(-d_fake).mean()
    og.zero_grad()
    g_loss.backward()
    og.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
W, U = torch.nn.Linear(5, 5), torch.nn.Linear(3, 5)
x = torch.randn(6, 2, 3)
H = torch.zeros(7, 2, 5)
for t in range(6):
    H[t + 1] = torch.tanh(W(H[t]) + U(x[t]))
loss = H.pow(2).sum()
loss.backward()
""", line=7, note="a hand-written RNN filling its state tensor step by step", fixed="""\
import torch
torch.manual_seed(0)
W, U = torch.nn.Linear(5, 5), torch.nn.Linear(3, 5)
x = torch.randn(6, 2, 3)
H = torch.zeros(7, 2, 5)
for t in range(6):
    H_next = torch.tanh(W(H[t]) + U(x[t]))
    H = H.clone()
    H[t + 1] = H_next
loss = H.pow(2).sum()
loss.backward()
"""),
)
