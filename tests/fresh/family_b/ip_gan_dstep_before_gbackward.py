# cause: inplace_modified_saved_tensor
# line: 23
# why: opt_d.step() updates the discriminator weights in place between the shared forward pass and g_loss.backward(), which still needs the old weights.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()

for step in range(3):
    real = torch.randn(8, 2) + 2.0
    fake = G(torch.randn(8, 3))
    d_fake = D(fake)
    d_loss = bce(D(real), torch.ones(8, 1)) + bce(d_fake, torch.zeros(8, 1))
    g_loss = bce(d_fake, torch.ones(8, 1))

    opt_d.zero_grad()
    d_loss.backward(retain_graph=True)
    opt_d.step()

    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
