# source: https://github.com/LoreGoetschalckx/GANalyze/issues/7
# style: gan
# cause: grads_not_zeroed
# line: 80
# expert: call optimizer.zero_grad() at the start of every batch so the transformation's gradient is not summed over all previous batches
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(seed=0)
device = torch.device("cpu")


class OneDirection(nn.Module):
    def __init__(self, dim_z, vocab_size=1000, **kwargs):
        super(OneDirection, self).__init__()
        self.dim_z = dim_z
        self.vocab_size = vocab_size
        self.w = nn.Parameter(torch.randn(1, self.dim_z))
        self.criterion = nn.MSELoss()

    def transform(self, z, y, step_sizes, **kwargs):
        interim = step_sizes * self.w
        z_transformed = z + interim
        z_transformed = z.norm() * z_transformed / z_transformed.norm()
        return z_transformed

    def compute_loss(self, current, target, batch_start, lossfile=None):
        return self.criterion(current, target)


class TinyGenerator(nn.Module):
    def __init__(self, dim_z, vocab_size):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim_z + vocab_size, 64), nn.ReLU(), nn.Linear(64, 3 * 8 * 8), nn.Tanh())

    def forward(self, z, y):
        return self.net(torch.cat([z, y], dim=1)).view(-1, 3, 8, 8)


class TinyAssessor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(1)


def one_hot(y, vocab_size=10):
    return torch.nn.functional.one_hot(y, vocab_size).float()


def denorm(x):
    return (x + 1) / 2


dim_z, vocab_size = 16, 10
transformation = OneDirection(dim_z, vocab_size).to(device)
generator = TinyGenerator(dim_z, vocab_size)
for p in generator.parameters():
    p.requires_grad = False
generator.eval()
assessor = TinyAssessor()
for p in assessor.parameters():
    p.requires_grad = False
assessor.eval()

optimizer = optim.Adam(transformation.parameters(), lr=0.0002)
batch_size = 4
train_alpha_a, train_alpha_b = -0.5, 0.5
num_samples = 40
zs = np.clip(np.random.randn(num_samples, dim_z), -1, 1)
ys = np.random.randint(0, vocab_size, size=zs.shape[0])

for batch_start in range(0, num_samples, batch_size):
    # zero the parameter gradients
    optimizer.zero_grad()
    s = slice(batch_start, min(num_samples, batch_start + batch_size))
    z = torch.from_numpy(zs[s]).type(torch.FloatTensor).to(device)
    y = torch.from_numpy(ys[s]).to(device)
    step_sizes = (train_alpha_b - train_alpha_a) * np.random.random(size=(batch_size)) + train_alpha_a
    step_sizes_broadcast = np.repeat(step_sizes, dim_z).reshape([batch_size, dim_z])
    step_sizes_broadcast = torch.from_numpy(step_sizes_broadcast).type(torch.FloatTensor).to(device)

    gan_images = generator(z, one_hot(y))
    gan_images = denorm(gan_images)
    out_scores = assessor(gan_images).float()
    target_scores = out_scores + torch.from_numpy(step_sizes).to(device).float()

    z_transformed = transformation.transform(z, one_hot(y), step_sizes_broadcast)
    gan_images_transformed = denorm(generator(z_transformed, one_hot(y)))
    out_scores_transformed = assessor(gan_images_transformed).float()

    loss = transformation.compute_loss(out_scores_transformed, target_scores, batch_start)
    loss.backward()
    optimizer.step()
    print(f'[{batch_start}/{num_samples}] loss {loss.item():.5f}')
