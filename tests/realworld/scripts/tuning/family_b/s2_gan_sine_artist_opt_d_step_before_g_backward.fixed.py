# source: https://github.com/pytorch/pytorch/issues/39141
# style: gan
# cause: inplace_modified_saved_tensor
# line: 55
# expert: opt_D.step() updates D's weights in place while G_loss still needs the old ones; after the D step, recompute prob_artist1 = D(G_paintings) with the updated D and build G_loss from it before G_loss.backward()
import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(1)
np.random.seed(1)

# Hyper Parameters
BATCH_SIZE = 16
LR_G = 0.0001
LR_D = 0.0001
N_IDEAS = 5
ART_COMPONENTS = 15
PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])


def artist_works():  # painting from the famous artist (real target)
    r = 0.02 * np.random.randn(1, ART_COMPONENTS)
    paintings = np.sin(PAINT_POINTS * np.pi) + r
    paintings = torch.from_numpy(paintings).float()
    return paintings


G = nn.Sequential(  # Generator
    nn.Linear(N_IDEAS, 32),
    nn.ReLU(),
    nn.Linear(32, ART_COMPONENTS),
)

D = nn.Sequential(  # Discriminator
    nn.Linear(ART_COMPONENTS, 32),
    nn.ReLU(),
    nn.Linear(32, 1),
    nn.Sigmoid(),
)

opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)

for step in range(20):
    artist_paintings = artist_works()
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)
    G_paintings = G(G_ideas)
    prob_artist0 = D(artist_paintings)
    prob_artist1 = D(G_paintings)
    D_loss = - torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)
    opt_D.step()

    prob_artist1 = D(G_paintings)  # D has been updated
    G_loss = torch.mean(torch.log(1. - prob_artist1))
    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()
print(D_loss.item(), G_loss.item())
