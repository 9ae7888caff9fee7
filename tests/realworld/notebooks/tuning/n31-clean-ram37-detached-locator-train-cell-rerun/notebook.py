# source: https://github.com/kevinzakka/recurrent-visual-attention/issues/37 ("Question on how to train Location network with detach function": the reporter quotes LocationNetwork's h_t.detach() / l_t.detach() and the trainer's R - baselines.detach(); the design the repository settled on in PR #32, merged: the locator and baseliner read a detached h_t, l_t is detached, the location network is trained by REINFORCE alone through log_pi, and every mini-batch starts from a fresh reset() h_t, l_t). modules.py and model.py are the repository's at a38ac89, kept next to the notebook; reset() and train_one_epoch of trainer.py are written as notebook functions (no tqdm, pickle dumps or tensorboard), the MNIST defaults of config.py (8x8 patch, 1 patch, 6 glimpses, std 0.05, Adam 3e-4); random 28x28 images with 10 labels instead of MNIST, batch size 8, 3 batches per epoch; the epoch cell is run twice
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: each mini-batch builds its own graph from a fresh reset() h_t and l_t, the location and baseline networks read h_t.detach(), l_t is detached after the reparametrised sample and the baselines are detached in the REINFORCE reward, so one loss.backward() per batch frees only that batch's graph and re-running the epoch cell trains on.
# %%
import torch
import torch.nn.functional as F

from model import RecurrentAttention

torch.manual_seed(0)
device = torch.device("cpu")
# %%
# config.py defaults for MNIST
patch_size, num_patches, glimpse_scale, num_channels = 8, 1, 1, 1
loc_hidden, glimpse_hidden, std = 128, 128, 0.05
hidden_size, num_classes, num_glimpses = 256, 10, 6
init_lr = 3e-4

model = RecurrentAttention(
    patch_size,
    num_patches,
    glimpse_scale,
    num_channels,
    loc_hidden,
    glimpse_hidden,
    std,
    hidden_size,
    num_classes,
)
model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=init_lr)

# random 28x28 images instead of the MNIST train loader
train_loader = [(torch.rand(8, 1, 28, 28), torch.randint(0, num_classes, (8,))) for _ in range(3)]
# %%
def reset(batch_size):
    h_t = torch.zeros(
        batch_size,
        hidden_size,
        dtype=torch.float,
        device=device,
        requires_grad=True,
    )
    l_t = torch.FloatTensor(batch_size, 2).uniform_(-1, 1).to(device)
    l_t.requires_grad = True

    return h_t, l_t


def train_one_epoch(epoch):
    model.train()
    losses, accs = [], []
    for i, (x, y) in enumerate(train_loader):
        optimizer.zero_grad()

        x, y = x.to(device), y.to(device)

        # initialize location vector and hidden state
        batch_size = x.shape[0]
        h_t, l_t = reset(batch_size)

        # extract the glimpses
        locs = []
        log_pi = []
        baselines = []
        for t in range(num_glimpses - 1):
            # forward pass through model
            h_t, l_t, b_t, p = model(x, l_t, h_t)

            # store
            locs.append(l_t[0:9])
            baselines.append(b_t)
            log_pi.append(p)

        # last iteration
        h_t, l_t, b_t, log_probas, p = model(x, l_t, h_t, last=True)
        log_pi.append(p)
        baselines.append(b_t)
        locs.append(l_t[0:9])

        # convert list to tensors and reshape
        baselines = torch.stack(baselines).transpose(1, 0)
        log_pi = torch.stack(log_pi).transpose(1, 0)

        # calculate reward
        predicted = torch.max(log_probas, 1)[1]
        R = (predicted.detach() == y).float()
        R = R.unsqueeze(1).repeat(1, num_glimpses)

        # compute losses for differentiable modules
        loss_action = F.nll_loss(log_probas, y)
        loss_baseline = F.mse_loss(baselines, R)

        # compute reinforce loss
        # summed over timesteps and averaged across batch
        adjusted_reward = R - baselines.detach()
        loss_reinforce = torch.sum(-log_pi * adjusted_reward, dim=1)
        loss_reinforce = torch.mean(loss_reinforce, dim=0)

        # sum up into a hybrid loss
        loss = loss_action + loss_baseline + loss_reinforce * 0.01

        # compute accuracy
        correct = (predicted == y).float()
        acc = 100 * (correct.sum() / len(y))

        # store
        losses.append(loss.item())
        accs.append(acc.item())

        # compute gradients and update SGD
        loss.backward()
        optimizer.step()

    return sum(losses) / len(losses), sum(accs) / len(accs)
# %%
for epoch in range(1):
    train_loss, train_acc = train_one_epoch(epoch)
    print("epoch {}: loss {:.3f} - acc {:.3f}".format(epoch + 1, train_loss, train_acc))
