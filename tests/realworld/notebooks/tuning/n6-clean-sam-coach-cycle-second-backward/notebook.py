# source: https://github.com/yuval-alaluf/SAM/issues/42
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: the step calls loss.backward() twice, which the issue suspected needed retain_graph=True, but the second loss comes from a new forward pass (the cycle pass) on y_hat.clone().detach().requires_grad_(True), so each backward frees only its own graph, as the maintainer answered; re-running the training cell draws a fresh batch and builds fresh graphs
# %%
import random
import torch
from torch import nn
import torch.nn.functional as F
random.seed(0)
torch.manual_seed(0)
# %%
class pSp(nn.Module):  # toy encoder/decoder standing in for the pSp + StyleGAN pair
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 6))
        self.decoder = nn.Sequential(nn.Linear(6, 3 * 8 * 8), nn.Tanh())

    def forward(self, x, return_latents=False):
        latent = self.encoder(x)
        images = self.decoder(latent).view(-1, 3, 8, 8)
        return (images, latent) if return_latents else images


net = pSp()
optimizer = torch.optim.Adam(list(net.encoder.parameters()), lr=1e-4)
train_dataloader = [(torch.rand(2, 3, 8, 8) * 2 - 1, torch.rand(2, 3, 8, 8) * 2 - 1) for _ in range(2)]
# %%
def extract_ages(x):  # stands in for the pretrained age classifier
    return (x.mean(dim=(1, 2, 3)) + 1) * 50


def set_target_to_source(x):
    input_ages = extract_ages(x) / 100.
    return [torch.cat((img, age * torch.ones((1, img.shape[1], img.shape[2]))))
            for img, age in zip(x, input_ages)]


def calc_loss(x, y, y_hat, latent, data_type="real"):
    loss_l2 = F.mse_loss(y_hat, y)
    loss_w_norm = latent.norm(2, dim=1).mean()
    loss = loss_l2 * 1.0 + loss_w_norm * 0.005
    if data_type == "cycle":
        loss = loss * 1.0
    return loss
# %%
net.train()
for batch_idx, batch in enumerate(train_dataloader):
    x, y = batch
    optimizer.zero_grad()
    x_input = torch.stack(set_target_to_source(x))

    # perform forward/backward pass on real images
    y_hat, latent = net.forward(x_input, return_latents=True)
    loss = calc_loss(x, y, y_hat, latent, data_type="real")
    loss.backward()

    # perform cycle on generate images by reversing the aging amount
    y_hat_clone = y_hat.clone().detach().requires_grad_(True)
    y_hat_inverse = set_target_to_source(y_hat_clone)
    y_hat_inverse = torch.stack(y_hat_inverse)
    y_recovered, latent_cycle = net.forward(y_hat_inverse, return_latents=True)
    loss = calc_loss(x, y, y_recovered, latent_cycle, data_type="cycle")
    loss.backward()
    optimizer.step()
    print(batch_idx, loss.item())
