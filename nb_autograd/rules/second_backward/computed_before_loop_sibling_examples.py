"""computed_before_loop examples whose tensor is built in a loop that ran before the failing
one (kept apart: the example modules stay small)."""
from __future__ import annotations

from ..base import Example

SIBLING_BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)

G = torch.nn.Linear(4, 4)
D = torch.nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
x = torch.randn(8, 4)

for step in range(2):
    fake = G(x)
    opt_d.zero_grad()
    d_loss = D(fake.detach()).mean() - D(x).mean()
    d_loss.backward()
    opt_d.step()

for step in range(2):
    opt_g.zero_grad()
    g_loss = -D(fake).mean()
    g_loss.backward()
    opt_g.step()
""", line=11, note="the fake made in the discriminator's loop, reused by each generator step: built "
                     "again in the generator's loop (GiorgosKarantonis/Adversarial-Attacks-with-Relativistic-AdvGAN#8)",
            fixed="""\
import torch
torch.manual_seed(0)

G = torch.nn.Linear(4, 4)
D = torch.nn.Linear(4, 1)
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
x = torch.randn(8, 4)

for step in range(2):
    fake = G(x)
    opt_d.zero_grad()
    d_loss = D(fake.detach()).mean() - D(x).mean()
    d_loss.backward()
    opt_d.step()

for step in range(2):
    opt_g.zero_grad()
    fake = G(x)
    g_loss = -D(fake).mean()
    g_loss.backward()
    opt_g.step()
"""),
)
