# source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/89 (406_GAN as the notebook version tutorial-contents-notebooks/406_GAN.ipynb ran before the fix: hyper-parameter, artist_works, G/D and optimizer cells, then the training cell computing D_loss and G_loss from one forward; the matplotlib plotting replaced by a print, 300 steps instead of 10000, seeded)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 4 line 14
# expert: G_loss is built from the same prob_artist1 = D(G_paintings) as D_loss, and opt_D.step() rewrites D's weights in place between D_loss.backward(retain_graph=True) and G_loss.backward(), which still needs the old weights (the check added in PyTorch 1.5, see pytorch/pytorch#39141 linked in the thread). As fixed in the repository after the thread's pull request: update G first (G_loss from D(G_paintings), backward, opt_G.step()), then compute D's loss on G_paintings.detach() and step D
# %%
import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(1)    # reproducible
np.random.seed(1)

# Hyper Parameters
BATCH_SIZE = 64
LR_G = 0.0001           # learning rate for generator
LR_D = 0.0001           # learning rate for discriminator
N_IDEAS = 5             # think of this as number of ideas for generating an art work (Generator)
ART_COMPONENTS = 15     # it could be total point G can draw in the canvas
PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])
# %%
def artist_works():     # painting from the famous artist (real target)
    a = np.random.uniform(1, 2, size=BATCH_SIZE)[:, np.newaxis]
    paintings = a * np.power(PAINT_POINTS, 2) + (a-1)
    paintings = torch.from_numpy(paintings).float()
    return paintings
# %%
G = nn.Sequential(                      # Generator
    nn.Linear(N_IDEAS, 128),            # random ideas (could from normal distribution)
    nn.ReLU(),
    nn.Linear(128, ART_COMPONENTS),     # making a painting from these random ideas
)

D = nn.Sequential(                      # Discriminator
    nn.Linear(ART_COMPONENTS, 128),     # receive art work either from the famous artist or a newbie like G
    nn.ReLU(),
    nn.Linear(128, 1),
    nn.Sigmoid(),                       # tell the probability that the art work is made by artist
)
# %%
opt_D = torch.optim.Adam(D.parameters(), lr=LR_D)
opt_G = torch.optim.Adam(G.parameters(), lr=LR_G)
# %%
for step in range(300):
    artist_paintings = artist_works()           # real painting from artist
    G_ideas = torch.randn(BATCH_SIZE, N_IDEAS)  # random ideas
    G_paintings = G(G_ideas)                    # fake painting from G (random ideas)

    prob_artist0 = D(artist_paintings)          # D try to increase this prob
    prob_artist1 = D(G_paintings)               # D try to reduce this prob

    D_loss = - torch.mean(torch.log(prob_artist0) + torch.log(1. - prob_artist1))
    G_loss = torch.mean(torch.log(1. - prob_artist1))

    opt_D.zero_grad()
    D_loss.backward(retain_graph=True)      # reusing computational graph
    opt_D.step()

    opt_G.zero_grad()
    G_loss.backward()
    opt_G.step()

    if step % 50 == 0:  # plotting
        print('D accuracy=%.2f (0.5 for D to converge)' % prob_artist0.data.numpy().mean(),
              'D score= %.2f (-1.38 for G to converge)' % -D_loss.data.numpy())
