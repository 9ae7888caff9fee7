# source: variant of https://github.com/rosinality/stylegan2-pytorch/commit/7550be431b7c1dc9982bbe3a336d2a2f4aec9f6e (this commit stopped detaching path_lengths inside the running path-length mean and made g_path_regularize return path_mean.detach(); train() of the current train.py, written here with g_path_regularize returning path_mean without that .detach(); no ADA augmentation, single-process stand-ins for distributed.py, a small mapping/synthesis MLP generator and MLP discriminator on random 1x8x8 images)
# style: gan
# cause: tensor_reused_across_iterations
# line: 133
# expert: mean_path_length is the exponential moving average of the path lengths carried from one lazy path-length regularization step to the next; g_path_regularize builds path_mean from this step's path_lengths, so returning it attached stores this step's generator graph in mean_path_length and the next regularization's path_penalty backpropagates into that freed graph. The commit returns path_mean.detach(), so the running mean is a constant for the next step.
import math
import random

import torch
from torch import nn, autograd
from torch.nn import functional as F

torch.manual_seed(0)
random.seed(0)


# ---- distributed.py (single process) ------------------------------------------
def get_rank():
    return 0


def get_world_size():
    return 1


def reduce_sum(tensor):
    return tensor


def gather_grad(params):
    return


def reduce_loss_dict(loss_dict):
    return loss_dict


# ---- model.py stand-ins ---------------------------------------------------------
class Generator(nn.Module):
    def __init__(self, size=8, style_dim=16, n_mlp=2):
        super().__init__()
        self.size = size
        self.style_dim = style_dim
        self.n_latent = 4
        layers = []
        for _ in range(n_mlp):
            layers += [nn.Linear(style_dim, style_dim), nn.LeakyReLU(0.2)]
        self.style = nn.Sequential(*layers)
        self.synthesis = nn.Sequential(
            nn.Linear(self.n_latent * style_dim, 64), nn.LeakyReLU(0.2),
            nn.Linear(64, size * size), nn.Tanh())

    def forward(self, styles, return_latents=False):
        styles = [self.style(s) for s in styles]
        if len(styles) < 2:
            latent = styles[0].unsqueeze(1).repeat(1, self.n_latent, 1)
        else:
            inject_index = random.randint(1, self.n_latent - 1)
            latent = styles[0].unsqueeze(1).repeat(1, inject_index, 1)
            latent2 = styles[1].unsqueeze(1).repeat(1, self.n_latent - inject_index, 1)
            latent = torch.cat([latent, latent2], 1)
        image = self.synthesis(latent.flatten(1)).view(-1, 1, self.size, self.size)
        if return_latents:
            return image, latent
        return image, None


class Discriminator(nn.Module):
    def __init__(self, size=8):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(size * size, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1))

    def forward(self, input):
        return self.net(input)


# ---- train.py -------------------------------------------------------------------
def requires_grad(model, flag=True):
    for p in model.parameters():
        p.requires_grad = flag


def accumulate(model1, model2, decay=0.999):
    par1 = dict(model1.named_parameters())
    par2 = dict(model2.named_parameters())

    for k in par1.keys():
        par1[k].data.mul_(decay).add_(par2[k].data, alpha=1 - decay)


def sample_data(loader):
    while True:
        for batch in loader:
            yield batch


def d_logistic_loss(real_pred, fake_pred):
    real_loss = F.softplus(-real_pred)
    fake_loss = F.softplus(fake_pred)

    return real_loss.mean() + fake_loss.mean()


def d_r1_loss(real_pred, real_img):
    grad_real, = autograd.grad(
        outputs=real_pred.sum(), inputs=real_img, create_graph=True
    )
    grad_penalty = grad_real.pow(2).view(grad_real.shape[0], -1).sum(1).mean()

    return grad_penalty


def g_nonsaturating_loss(fake_pred):
    loss = F.softplus(-fake_pred).mean()

    return loss


def g_path_regularize(fake_img, latents, mean_path_length, decay=0.01):
    noise = torch.randn_like(fake_img) / math.sqrt(
        fake_img.shape[2] * fake_img.shape[3]
    )
    grad, = autograd.grad(
        outputs=(fake_img * noise).sum(), inputs=latents, create_graph=True
    )
    path_lengths = torch.sqrt(grad.pow(2).sum(2).mean(1))

    path_mean = mean_path_length + decay * (path_lengths.mean() - mean_path_length)

    path_penalty = (path_lengths - path_mean).pow(2).mean()

    return path_penalty, path_mean, path_lengths


def make_noise(batch, latent_dim, n_noise, device):
    if n_noise == 1:
        return torch.randn(batch, latent_dim, device=device)

    noises = torch.randn(n_noise, batch, latent_dim, device=device).unbind(0)

    return noises


def mixing_noise(batch, latent_dim, prob, device):
    if prob > 0 and random.random() < prob:
        return make_noise(batch, latent_dim, 2, device)

    else:
        return [make_noise(batch, latent_dim, 1, device)]


def train(args, loader, generator, discriminator, g_optim, d_optim, g_ema, device):
    loader = sample_data(loader)
    pbar = range(args.iter)

    mean_path_length = 0

    d_loss_val = 0
    r1_loss = torch.tensor(0.0, device=device)
    g_loss_val = 0
    path_loss = torch.tensor(0.0, device=device)
    path_lengths = torch.tensor(0.0, device=device)
    mean_path_length_avg = 0
    loss_dict = {}

    for i in pbar:
        real_img = next(loader)
        real_img = real_img.to(device)

        requires_grad(generator, False)
        requires_grad(discriminator, True)

        noise = mixing_noise(args.batch, args.latent, args.mixing, device)
        fake_img, _ = generator(noise)

        real_img_aug = real_img

        fake_pred = discriminator(fake_img)
        real_pred = discriminator(real_img_aug)
        d_loss = d_logistic_loss(real_pred, fake_pred)

        loss_dict['d'] = d_loss
        loss_dict['real_score'] = real_pred.mean()
        loss_dict['fake_score'] = fake_pred.mean()

        discriminator.zero_grad()
        d_loss.backward()
        d_optim.step()

        d_regularize = i % args.d_reg_every == 0

        if d_regularize:
            real_img.requires_grad = True
            real_img_aug = real_img

            real_pred = discriminator(real_img_aug)
            r1_loss = d_r1_loss(real_pred, real_img)

            discriminator.zero_grad()
            (args.r1 / 2 * r1_loss * args.d_reg_every + 0 * real_pred[0]).backward()

            d_optim.step()

        loss_dict['r1'] = r1_loss

        requires_grad(generator, True)
        requires_grad(discriminator, False)

        noise = mixing_noise(args.batch, args.latent, args.mixing, device)
        fake_img, _ = generator(noise)

        fake_pred = discriminator(fake_img)
        g_loss = g_nonsaturating_loss(fake_pred)

        loss_dict['g'] = g_loss

        generator.zero_grad()
        g_loss.backward()
        g_optim.step()

        g_regularize = i % args.g_reg_every == 0

        if g_regularize:
            path_batch_size = max(1, args.batch // args.path_batch_shrink)
            noise = mixing_noise(path_batch_size, args.latent, args.mixing, device)
            fake_img, latents = generator(noise, return_latents=True)

            path_loss, mean_path_length, path_lengths = g_path_regularize(
                fake_img, latents, mean_path_length
            )

            generator.zero_grad()
            weighted_path_loss = args.path_regularize * args.g_reg_every * path_loss

            if args.path_batch_shrink:
                weighted_path_loss += 0 * fake_img[0, 0, 0, 0]

            weighted_path_loss.backward()

            g_optim.step()

            mean_path_length_avg = (
                reduce_sum(mean_path_length).item() / get_world_size()
            )

        loss_dict['path'] = path_loss
        loss_dict['path_length'] = path_lengths.mean()

        accumulate(g_ema, generator)

        loss_reduced = reduce_loss_dict(loss_dict)

        d_loss_val = loss_reduced['d'].mean().item()
        g_loss_val = loss_reduced['g'].mean().item()
        r1_val = loss_reduced['r1'].mean().item()
        path_loss_val = loss_reduced['path'].mean().item()

        if get_rank() == 0:
            print(
                f'd: {d_loss_val:.4f}; g: {g_loss_val:.4f}; r1: {r1_val:.4f}; '
                f'path: {path_loss_val:.4f}; mean path: {mean_path_length_avg:.4f}'
            )


class Args:
    iter = 5
    batch = 4
    latent = 16
    r1 = 10
    path_regularize = 2
    path_batch_shrink = 2
    d_reg_every = 4
    g_reg_every = 2
    mixing = 0.9
    lr = 0.002


args = Args()
device = 'cpu'
generator = Generator(size=8, style_dim=args.latent)
discriminator = Discriminator(size=8)
g_ema = Generator(size=8, style_dim=args.latent)
g_ema.eval()
accumulate(g_ema, generator, 0)

g_reg_ratio = args.g_reg_every / (args.g_reg_every + 1)
d_reg_ratio = args.d_reg_every / (args.d_reg_every + 1)
g_optim = torch.optim.Adam(generator.parameters(), lr=args.lr * g_reg_ratio,
                           betas=(0 ** g_reg_ratio, 0.99 ** g_reg_ratio))
d_optim = torch.optim.Adam(discriminator.parameters(), lr=args.lr * d_reg_ratio,
                           betas=(0 ** d_reg_ratio, 0.99 ** d_reg_ratio))

# stands in for the LMDB image dataset: images in [-1, 1]
loader = [torch.rand(args.batch, 1, 8, 8) * 2 - 1 for _ in range(3)]
train(args, loader, generator, discriminator, g_optim, d_optim, g_ema, device)
