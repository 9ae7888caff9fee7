# source: https://github.com/VinAIResearch/PSENet-Image-Enhancement/issues/1
# scenario: earlier_function
# cause: double_backward
# root: cell 2 line 48
# expert: the reporter added loss.backward() inside PSENet.training_step, but the (Lightning-style) trainer that calls training_step already runs backward on the returned loss, so the second backward hits the freed graph; as the maintainer answered, with PyTorch Lightning automatic optimization remove the manual loss.backward() from training_step
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

# stand-in for the low-light/over-exposed training images: 6 batches of 2 RGB 8x8 crops
train_batches = [torch.rand(2, 3, 8, 8) for _ in range(6)]
# %%
class UnetTMO(nn.Module):
    """ tiny stand-in for the tone-mapping U-Net: predicts a per-pixel gamma and applies it """
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        gamma = torch.exp(torch.tanh(self.body(x)))
        return x.clamp(min=1e-4) ** gamma, gamma


class TVLoss(nn.Module):
    def forward(self, x):
        return (x[..., 1:, :] - x[..., :-1, :]).abs().mean() + (x[..., :, 1:] - x[..., :, :-1]).abs().mean()


class IQA(nn.Module):
    """ frozen stand-in for the no-reference image-quality scorer """
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 3, padding=1)
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.conv(x)
# %%
class PSENet(nn.Module):
    def __init__(self, tv_w, gamma_lower, gamma_upper, number_refs, lr):
        super().__init__()
        self.tv_w = tv_w
        self.gamma_lower = gamma_lower
        self.gamma_upper = gamma_upper
        self.number_refs = number_refs
        self.lr = lr
        self.model = UnetTMO()
        self.mse = torch.nn.MSELoss()
        self.tv = TVLoss()
        self.iqa = IQA()
        self.saved_input = None
        self.saved_pseudo_gt = None

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=self.lr, betas=[0.9, 0.99])

    def generate_pseudo_gt(self, im):
        bs, ch, h, w = im.shape
        underexposed_ranges = torch.linspace(0, self.gamma_upper, steps=self.number_refs)
        underexposed_gamma = torch.exp(torch.rand([bs, self.number_refs]) * underexposed_ranges[None, :])
        overrexposed_ranges = torch.linspace(self.gamma_lower, 0, steps=self.number_refs)
        overrexposed_gamma = torch.exp(torch.rand([bs, self.number_refs]) * overrexposed_ranges[None, :])
        gammas = torch.cat([underexposed_gamma, overrexposed_gamma], dim=1)
        synthetic_references = 1 - (1 - im[:, None]) ** gammas[:, :, None, None, None]
        previous_iter_output = self.model(im)[0].clone().detach()
        references = torch.cat([im[:, None], previous_iter_output[:, None], synthetic_references], dim=1)
        nref = references.shape[1]
        scores = self.iqa(references.view(bs * nref, ch, h, w))
        scores = scores.view(bs, nref, 1, h, w)
        max_idx = torch.argmax(scores, dim=1)
        max_idx = max_idx.repeat(1, ch, 1, 1)[:, None]
        pseudo_gt = torch.gather(references, 1, max_idx)
        return pseudo_gt.squeeze(1)

    def training_step(self, batch, batch_idx):
        # In nth iteration, we use the (n - 1)th batch to update the model's weights
        nth_input = batch
        nth_pseudo_gt = self.generate_pseudo_gt(batch)
        if self.saved_input is not None:
            im = self.saved_input
            pred_im, pred_gamma = self.model(im)
            pseudo_gt = self.saved_pseudo_gt
            reconstruction_loss = self.mse(pred_im, pseudo_gt)
            tv_loss = self.tv(pred_gamma)
            loss = reconstruction_loss + tv_loss * self.tv_w
            loss.backward()
        else:
            # skip updating model's weight at the first batch
            loss = None
        # saving n-th input and n-th pseudo gt
        self.saved_input = nth_input
        self.saved_pseudo_gt = nth_pseudo_gt
        return loss
# %%
def fit(module, batches, max_epochs=1):
    ''' what pytorch_lightning.Trainer.fit does with automatic optimization '''
    optimizer = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch_idx, batch in enumerate(batches):
            loss = module.training_step(batch, batch_idx)
            if loss is None:
                continue
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print('epoch', epoch, 'loss', loss.item())
# %%
psenet = PSENet(tv_w=5, gamma_lower=-2, gamma_upper=3, number_refs=1, lr=5e-4)
fit(psenet, train_batches, max_epochs=2)
