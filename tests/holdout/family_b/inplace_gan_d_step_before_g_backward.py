# cause: inplace_modified_saved_tensor
# line: 22
# why: opt_d.step() updates D's weights in place while the retained D(fake) graph that loss_g backpropagates through still needs their old values.
import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for it in range(3):
    real = 0.5 * torch.randn(16, 2) + 1.0
    fake = G(torch.randn(16, 4))
    d_fake = D(fake)
    loss_d = bce(D(real), torch.ones(16, 1)) + bce(d_fake, torch.zeros(16, 1))
    opt_d.zero_grad()
    loss_d.backward(retain_graph=True)
    opt_d.step()
    loss_g = bce(d_fake, torch.ones(16, 1))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
