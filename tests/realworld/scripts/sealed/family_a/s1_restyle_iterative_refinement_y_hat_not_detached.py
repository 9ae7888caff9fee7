# source: https://github.com/yuval-alaluf/restyle-encoder/issues/15
# style: gan
# cause: tensor_reused_across_iterations
# line: 66
# expert: each refinement iteration feeds the previous y_hat / latent back into the encoder input after loss.backward() already freed their graph; detach them before they are reused, as coach_restyle_psp does after each backward (y_hat = y_hat.clone().detach().requires_grad_(True); latent = latent.clone().detach().requires_grad_(True))
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, n_styles=4, style_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 8, 3, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 4 * 4, n_styles * style_dim))
        self.n_styles, self.style_dim = n_styles, style_dim

    def forward(self, x):
        return self.net(x).view(-1, self.n_styles, self.style_dim)


class Decoder(nn.Module):
    def __init__(self, n_styles=4, style_dim=8):
        super().__init__()
        self.fc = nn.Linear(n_styles * style_dim, 3 * 8 * 8)

    def forward(self, codes):
        return torch.tanh(self.fc(codes.flatten(1))).view(-1, 3, 8, 8)


class pSp(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = Encoder(), Decoder()
        for p in self.decoder.parameters():
            p.requires_grad = False
        self.latent_avg = torch.zeros(4, 8)

    def forward(self, x, latent=None, return_latents=False):
        codes = self.encoder(x)
        codes = codes + (self.latent_avg.repeat(codes.shape[0], 1, 1) if latent is None else latent)
        images = self.decoder(codes)
        return (images, codes) if return_latents else images


class Coach:
    def __init__(self, n_iters_per_batch=3):
        self.net = pSp()
        self.optimizer = torch.optim.Adam(self.net.encoder.parameters(), lr=1e-4)
        self.n_iters_per_batch = n_iters_per_batch
        self.avg_image = torch.zeros(3, 8, 8)

    def calc_loss(self, x, y, y_hat):
        return F.mse_loss(y_hat, y) + F.l1_loss(y_hat, y)

    def perform_train_iteration_on_batch(self, x, y):
        y_hat, latent = None, None
        for iter in range(self.n_iters_per_batch):
            if iter == 0:
                avg_image_for_batch = self.avg_image.unsqueeze(0).repeat(x.shape[0], 1, 1, 1)
                x_input = torch.cat([x, avg_image_for_batch], dim=1)
                y_hat, latent = self.net.forward(x_input, latent=None, return_latents=True)
            else:
                x_input = torch.cat([x, y_hat], dim=1)
                y_hat, latent = self.net.forward(x_input, latent=latent, return_latents=True)
            loss = self.calc_loss(x, y, y_hat)
            loss.backward()
        return y_hat, loss

    def train(self, loader):
        for batch_idx, (x, y) in enumerate(loader):
            self.optimizer.zero_grad()
            y_hats, loss = self.perform_train_iteration_on_batch(x, y)
            self.optimizer.step()
            print(batch_idx, loss.item())


coach = Coach()
coach.train([(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8)) for _ in range(2)])
