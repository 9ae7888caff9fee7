# source: https://github.com/sthalles/SimCLR/commit/af77a03f0b66f52ee4fdb75d55a04eea8bfcc8cc ("fixed bug missing zero_grad()": train.py as it was before this commit, with get_negative_mask and the similarity functions of utils.py; a small conv ResNetSimCLR stand-in, random 3x16x16 images with noise/flip views instead of STL10 and DataTransform, a no-op SummaryWriter, 2 epochs of 3 batches)
# style: contrastive
# cause: grads_not_zeroed
# line: 162
# expert: The training loop calls loss.backward() and optimizer.step() for every batch but never clears the gradients, so each Adam step uses the sum of the gradients of all batches seen so far instead of the current NT-Xent gradient. The commit adds optimizer.zero_grad() at the start of every iteration.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)

# ---- utils.py ---------------------------------------------------------------------
cos1d = torch.nn.CosineSimilarity(dim=1)
cos2d = torch.nn.CosineSimilarity(dim=2)


def get_negative_mask(batch_size):
    # return a mask that removes the similarity score of equal/similar images.
    # this function ensures that only distinct pair of images get their similarity scores
    # passed as negative examples
    negative_mask = torch.ones((batch_size, 2 * batch_size), dtype=bool)
    for i in range(batch_size):
        negative_mask[i, i] = 0
        negative_mask[i, i + batch_size] = 0
    return negative_mask


def _dot_simililarity_dim1(x, y):
    v = torch.bmm(x.unsqueeze(1), y.unsqueeze(2))
    return v


def _dot_simililarity_dim2(x, y):
    v = torch.tensordot(x.unsqueeze(1), y.T.unsqueeze(0), dims=2)
    return v


def _cosine_simililarity_dim1(x, y):
    v = cos1d(x, y)
    return v


def _cosine_simililarity_dim2(x, y):
    v = cos2d(x.unsqueeze(1), y.unsqueeze(0))
    return v


def get_similarity_function(use_cosine_similarity):
    if use_cosine_similarity:
        return _cosine_simililarity_dim1, _cosine_simililarity_dim2
    else:
        return _dot_simililarity_dim1, _dot_simililarity_dim2


# ---- models/resnet_simclr.py stand-in ----------------------------------------------
class ResNetSimCLR(nn.Module):
    def __init__(self, base_model, out_dim):
        super(ResNetSimCLR, self).__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        num_ftrs = 32
        # projection MLP
        self.l1 = nn.Linear(num_ftrs, num_ftrs)
        self.l2 = nn.Linear(num_ftrs, out_dim)

    def forward(self, x):
        h = self.features(x)
        h = h.squeeze()

        x = self.l1(h)
        x = F.relu(x)
        x = self.l2(x)
        return h, x


class SummaryWriter:
    """no-op stand-in for torch.utils.tensorboard.SummaryWriter"""

    def add_histogram(self, *args, **kwargs):
        pass

    def add_scalar(self, *args, **kwargs):
        pass


config = {'batch_size': 8, 'out_dim': 16, 'temperature': 0.5, 'use_cosine_similarity': True,
          'epochs': 2, 'base_convnet': 'resnet18'}

batch_size = config['batch_size']
out_dim = config['out_dim']
temperature = config['temperature']
use_cosine_similarity = config['use_cosine_similarity']


def two_views(images):
    """stands in for DataTransform(data_augment): two random augmentations of each image"""
    xis = images + 0.1 * torch.randn_like(images)
    xjs = torch.flip(images, dims=[3]) + 0.1 * torch.randn_like(images)
    return xis, xjs


train_loader = [(two_views(torch.rand(batch_size, 3, 16, 16)), torch.zeros(batch_size)) for _ in range(3)]

model = ResNetSimCLR(base_model=config["base_convnet"], out_dim=out_dim)

train_gpu = False
print("Is gpu available:", train_gpu)

criterion = torch.nn.CrossEntropyLoss(reduction='sum')
optimizer = optim.Adam(model.parameters(), 3e-4)

train_writer = SummaryWriter()

sim_func_dim1, sim_func_dim2 = get_similarity_function(use_cosine_similarity)

# Mask to remove positive examples from the batch of negative samples
negative_mask = get_negative_mask(batch_size)

n_iter = 0
for e in range(config['epochs']):
    for step, ((xis, xjs), _) in enumerate(train_loader):

        optimizer.zero_grad()

        # get the representations and the projections
        ris, zis = model(xis)  # [N,C]
        train_writer.add_histogram("xi_repr", ris, global_step=n_iter)
        train_writer.add_histogram("xi_latent", zis, global_step=n_iter)

        # get the representations and the projections
        rjs, zjs = model(xjs)  # [N,C]
        train_writer.add_histogram("xj_repr", rjs, global_step=n_iter)
        train_writer.add_histogram("xj_latent", zjs, global_step=n_iter)

        # normalize projection feature vectors
        zis = F.normalize(zis, dim=1)
        zjs = F.normalize(zjs, dim=1)

        l_pos = sim_func_dim1(zis, zjs).view(batch_size, 1)
        l_pos /= temperature

        negatives = torch.cat([zjs, zis], dim=0)

        loss = 0

        for positives in [zis, zjs]:
            l_neg = sim_func_dim2(positives, negatives)

            labels = torch.zeros(batch_size, dtype=torch.long)

            l_neg = l_neg[negative_mask].view(l_neg.shape[0], -1)
            l_neg /= temperature

            logits = torch.cat([l_pos, l_neg], dim=1)  # [N,K+1]
            loss += criterion(logits, labels)

        loss = loss / (2 * batch_size)
        train_writer.add_scalar('loss', loss, global_step=n_iter)

        loss.backward()
        optimizer.step()
        n_iter += 1
        print("Step {}, Loss {:.4f}".format(step, loss.item()))
