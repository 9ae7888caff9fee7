# source: variant of https://github.com/daa233/generative-inpainting-pytorch/issues/62 (Trainer.forward of trainer.py and the update steps of train.py at ee1fd75, split into a forward cell, an Update D cell and an Update G cell; small stand-ins for the generator and the local/global critics without contextual attention, one random batch with a fixed hole, CPU)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 4 line 5
# expert: the forward cell builds both the critic losses and the generator's wgan_g term through the non-detached localD/globalD, and the 'Update D' cell runs optimizer_d.step(), which rewrites the discriminators' weights in place before losses['g'].backward() needs the weights saved by that forward; as settled in the thread, remove optimizer_d.step() from the D cell and call it just before optimizer_g.step(), after the generator backward
# %%
import torch
import torch.nn as nn
from torch import autograd
torch.manual_seed(0)

config = {'cuda': False, 'gpu_ids': None, 'lr': 1e-4, 'beta1': 0.5, 'beta2': 0.9, 'n_critic': 5,
          'image_shape': [16, 16, 3], 'mask_shape': [8, 8], 'discounted_mask': False,
          'coarse_l1_alpha': 1.2, 'l1_loss_alpha': 1.2, 'ae_loss_alpha': 1.2,
          'global_wgan_loss_alpha': 1., 'gan_loss_alpha': 0.001, 'wgan_gp_lambda': 10,
          'netG': {'input_dim': 3, 'ngf': 8}, 'netD': {'input_dim': 3, 'ndf': 8}}
# %%
# small stand-ins for model/networks.py (no contextual attention) and utils/tools.py
class Generator(nn.Module):
    def __init__(self, config, use_cuda, device_ids):
        super().__init__()
        dim, cnum = config['input_dim'], config['ngf']
        self.coarse_generator = nn.Sequential(nn.Conv2d(dim + 2, cnum, 3, 1, 1), nn.ELU(), nn.Conv2d(cnum, dim, 3, 1, 1))
        self.fine_generator = nn.Sequential(nn.Conv2d(dim + 2, cnum, 3, 1, 1), nn.ELU(), nn.Conv2d(cnum, dim, 3, 1, 1))

    def forward(self, x, mask):
        ones = torch.ones(x.size(0), 1, x.size(2), x.size(3))
        x1 = torch.clamp(self.coarse_generator(torch.cat([x, ones, mask], dim=1)), -1., 1.)
        x1_inpaint = x1 * mask + x * (1. - mask)
        x2 = torch.clamp(self.fine_generator(torch.cat([x1_inpaint, ones, mask], dim=1)), -1., 1.)
        offset_flow = torch.zeros_like(x2)
        return x1, x2, offset_flow

class LocalDis(nn.Module):
    def __init__(self, config, use_cuda=True, device_ids=None):
        super().__init__()
        self.input_dim, self.cnum = config['input_dim'], config['ndf']
        self.dis_conv_module = nn.Sequential(nn.Conv2d(self.input_dim, self.cnum, 5, 2, 2), nn.LeakyReLU(0.2),
                                             nn.Conv2d(self.cnum, self.cnum * 2, 5, 2, 2), nn.LeakyReLU(0.2))
        self.linear = nn.Linear(self.cnum * 2 * 2 * 2, 1)

    def forward(self, x):
        x = self.dis_conv_module(x)
        x = x.view(x.size()[0], -1)
        return self.linear(x)

class GlobalDis(LocalDis):
    def __init__(self, config, use_cuda=True, device_ids=None):
        super().__init__(config, use_cuda, device_ids)
        self.linear = nn.Linear(self.cnum * 2 * 4 * 4, 1)

def local_patch(x, bbox_list):
    patches = []
    for i, bbox in enumerate(bbox_list):
        t, l, h, w = bbox
        patches.append(x[i, :, t:t + h, l:l + w])
    return torch.stack(patches, dim=0)

def spatial_discounting_mask(config):
    return torch.ones(1, 1, config['mask_shape'][0], config['mask_shape'][1])
# %%
class Trainer(nn.Module):
    def __init__(self, config):
        super(Trainer, self).__init__()
        self.config = config
        self.use_cuda = self.config['cuda']
        self.device_ids = self.config['gpu_ids']

        self.netG = Generator(self.config['netG'], self.use_cuda, self.device_ids)
        self.localD = LocalDis(self.config['netD'], self.use_cuda, self.device_ids)
        self.globalD = GlobalDis(self.config['netD'], self.use_cuda, self.device_ids)

        self.optimizer_g = torch.optim.Adam(self.netG.parameters(), lr=self.config['lr'],
                                            betas=(self.config['beta1'], self.config['beta2']))
        d_params = list(self.localD.parameters()) + list(self.globalD.parameters())
        self.optimizer_d = torch.optim.Adam(d_params, lr=config['lr'],
                                            betas=(self.config['beta1'], self.config['beta2']))

    def forward(self, x, bboxes, masks, ground_truth, compute_loss_g=False):
        self.train()
        l1_loss = nn.L1Loss()
        losses = {}

        x1, x2, offset_flow = self.netG(x, masks)
        local_patch_gt = local_patch(ground_truth, bboxes)
        x1_inpaint = x1 * masks + x * (1. - masks)
        x2_inpaint = x2 * masks + x * (1. - masks)
        local_patch_x1_inpaint = local_patch(x1_inpaint, bboxes)
        local_patch_x2_inpaint = local_patch(x2_inpaint, bboxes)

        # D part
        # wgan d loss
        local_patch_real_pred, local_patch_fake_pred = self.dis_forward(
            self.localD, local_patch_gt, local_patch_x2_inpaint.detach())
        global_real_pred, global_fake_pred = self.dis_forward(
            self.globalD, ground_truth, x2_inpaint.detach())
        losses['wgan_d'] = torch.mean(local_patch_fake_pred - local_patch_real_pred) + \
            torch.mean(global_fake_pred - global_real_pred) * self.config['global_wgan_loss_alpha']
        # gradients penalty loss
        local_penalty = self.calc_gradient_penalty(
            self.localD, local_patch_gt, local_patch_x2_inpaint.detach())
        global_penalty = self.calc_gradient_penalty(self.globalD, ground_truth, x2_inpaint.detach())
        losses['wgan_gp'] = local_penalty + global_penalty

        # G part
        if compute_loss_g:
            sd_mask = spatial_discounting_mask(self.config)
            losses['l1'] = l1_loss(local_patch_x1_inpaint * sd_mask, local_patch_gt * sd_mask) * \
                self.config['coarse_l1_alpha'] + \
                l1_loss(local_patch_x2_inpaint * sd_mask, local_patch_gt * sd_mask)
            losses['ae'] = l1_loss(x1 * (1. - masks), ground_truth * (1. - masks)) * \
                self.config['coarse_l1_alpha'] + \
                l1_loss(x2 * (1. - masks), ground_truth * (1. - masks))

            # wgan g loss
            local_patch_real_pred, local_patch_fake_pred = self.dis_forward(
                self.localD, local_patch_gt, local_patch_x2_inpaint)
            global_real_pred, global_fake_pred = self.dis_forward(
                self.globalD, ground_truth, x2_inpaint)
            losses['wgan_g'] = - torch.mean(local_patch_fake_pred) - \
                torch.mean(global_fake_pred) * self.config['global_wgan_loss_alpha']

        return losses, x2_inpaint, offset_flow

    def dis_forward(self, netD, ground_truth, x_inpaint):
        assert ground_truth.size() == x_inpaint.size()
        batch_size = ground_truth.size(0)
        batch_data = torch.cat([ground_truth, x_inpaint], dim=0)
        batch_output = netD(batch_data)
        real_pred, fake_pred = torch.split(batch_output, batch_size, dim=0)
        return real_pred, fake_pred

    def calc_gradient_penalty(self, netD, real_data, fake_data):
        batch_size = real_data.size(0)
        alpha = torch.rand(batch_size, 1, 1, 1)
        alpha = alpha.expand_as(real_data)
        interpolates = alpha * real_data + (1 - alpha) * fake_data
        interpolates = interpolates.requires_grad_().clone()
        disc_interpolates = netD(interpolates)
        grad_outputs = torch.ones(disc_interpolates.size())
        gradients = autograd.grad(outputs=disc_interpolates, inputs=interpolates,
                                  grad_outputs=grad_outputs, create_graph=True,
                                  retain_graph=True, only_inputs=True)[0]
        gradients = gradients.view(batch_size, -1)
        gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
        return gradient_penalty

trainer = Trainer(config)
trainer_module = trainer
# %%
# one batch: random images with a hole (bbox) in the middle
ground_truth = torch.rand(2, 3, 16, 16) * 2 - 1
bboxes = torch.tensor([[4, 4, 8, 8], [4, 4, 8, 8]])
mask = torch.zeros(2, 1, 16, 16)
mask[:, :, 4:12, 4:12] = 1.
x = ground_truth * (1. - mask)

###### Forward pass ######
iteration = 5
compute_g_loss = iteration % config['n_critic'] == 0
losses, inpainted_result, offset_flow = trainer(x, bboxes, mask, ground_truth, compute_g_loss)
# Scalars from different devices are gathered into vectors
for k in losses.keys():
    if not losses[k].dim() == 0:
        losses[k] = torch.mean(losses[k])
# %%
# Update D
trainer_module.optimizer_d.zero_grad()
losses['d'] = losses['wgan_d'] + losses['wgan_gp'] * config['wgan_gp_lambda']
losses['d'].backward()
trainer_module.optimizer_d.step()
# %%
# Update G
if compute_g_loss:
    trainer_module.optimizer_g.zero_grad()
    losses['g'] = losses['l1'] * config['l1_loss_alpha'] \
                  + losses['ae'] * config['ae_loss_alpha'] \
                  + losses['wgan_g'] * config['gan_loss_alpha']
    losses['g'].backward()
    trainer_module.optimizer_g.step()
print({k: round(v.item(), 4) for k, v in losses.items()})
