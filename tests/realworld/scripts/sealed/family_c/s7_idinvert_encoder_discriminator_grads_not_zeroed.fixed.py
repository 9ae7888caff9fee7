# source: https://github.com/Hsintien-Ng/idinvert_pytorch-reproduced/issues/1
# style: gan
# cause: grads_not_zeroed
# line: 75
# expert: In the encoder training loop the discriminator step calls `D_loss.backward(); optimizer_D.step()` with no `optimizer_D.zero_grad()`, so D's gradients keep accumulating across iterations (including the adversarial-loss gradients that `E_loss.backward()` deposits in D); the author confirmed it was forgotten and added `optimizer_D.zero_grad()` before `D_loss.backward()` (commit cf33025).
import torch
import torch.nn as nn

torch.manual_seed(0)


class StyleGANEncoder(nn.Module):
    def __init__(self, num_layers=2, w_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, num_layers * w_dim))


class StyleGANGenerator(nn.Module):
    def __init__(self, num_layers=2, w_dim=8):
        super().__init__()
        self.num_layers, self.w_space_dim = num_layers, w_dim
        self.synthesis = nn.Sequential(nn.Flatten(), nn.Linear(num_layers * w_dim, 3 * 8 * 8), nn.Tanh(),
                                       nn.Unflatten(1, (3, 8, 8)))
        for p in self.synthesis.parameters():
            p.requires_grad_(False)


class StyleGANDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))


def GAN_loss(scores, real=True):
    return nn.functional.softplus(-scores).mean() if real else nn.functional.softplus(scores).mean()


def div_loss_(D, real_x, fake_x, p=2):
    x_ = real_x.requires_grad_(True)
    y_ = D.net(x_)
    grad = torch.autograd.grad(outputs=y_, inputs=x_, grad_outputs=torch.ones_like(y_), create_graph=True,
                               retain_graph=True)[0].view(x_.shape[0], -1)
    return grad.pow(2).sum(1).pow(p / 2).mean()


loss_pix_weight, loss_adv_weight = 1.0, 0.1
loss_real_weight, loss_fake_weight, loss_gp_weight = 1.0, 1.0, 5.0

G = StyleGANGenerator()
E = StyleGANEncoder()
D = StyleGANDiscriminator()
encode_dim = [G.num_layers, G.w_space_dim]
optimizer_E = torch.optim.Adam(E.net.parameters(), lr=1e-4, betas=(0.9, 0.99))
optimizer_D = torch.optim.Adam(D.net.parameters(), lr=1e-4, betas=(0.9, 0.99))

train_dataloader = [torch.rand(4, 3, 8, 8) * 2 - 1 for _ in range(4)]
d_grad_norms = []
for epoch in range(2):
    for step, items in enumerate(train_dataloader):
        E.net.train()
        x = items.float()
        batch_size = x.shape[0]
        z = E.net(x).view(batch_size, *encode_dim)
        x_rec = G.synthesis(z)

        # ===============================
        #         optimizing D
        # ===============================
        x_real = D.net(x)
        x_fake = D.net(x_rec.detach())
        loss_real = GAN_loss(x_real, real=True)
        loss_fake = GAN_loss(x_fake, real=False)
        loss_gp = div_loss_(D, x.clone(), x_rec.detach())
        D_loss = loss_real_weight * loss_real + loss_fake_weight * loss_fake + loss_gp_weight * loss_gp
        optimizer_D.zero_grad()
        D_loss.backward()
        d_grad_norms.append(sum(p.grad.norm() for p in D.net.parameters()).item())
        optimizer_D.step()

        # ===============================
        #         optimizing G
        # ===============================
        loss_pix = torch.mean((x - x_rec) ** 2)
        x_adv = D.net(x_rec)
        loss_adv = GAN_loss(x_adv, real=True)
        E_loss = loss_pix_weight * loss_pix + loss_adv_weight * loss_adv
        optimizer_E.zero_grad()
        E_loss.backward()
        optimizer_E.step()
        print(f"Epoch:{epoch:03d}, Step:{step:04d}, D:{D_loss.item():.3f}, E:{E_loss.item():.3f}")

print("D grad norm per step:", [round(g, 3) for g in d_grad_norms])
