# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)

class Intensity_Loss(nn.Module):
    def forward(self, gen_frames, gt_frames):
        return torch.mean(torch.abs((gen_frames - gt_frames) ** 2))

class Gradient_Loss(nn.Module):
    def __init__(self, channels):
        super().__init__()
        pos = torch.from_numpy(np.identity(channels, dtype=np.float32))
        neg = -1 * pos
        self.filter_x = torch.stack((neg, pos)).unsqueeze(0).permute(3, 2, 0, 1)
        self.filter_y = torch.stack((pos.unsqueeze(0), neg.unsqueeze(0))).permute(3, 2, 0, 1)

    def forward(self, gen_frames, gt_frames):
        gen_frames_x = nn.functional.pad(gen_frames, [0, 1, 0, 0])
        gen_frames_y = nn.functional.pad(gen_frames, [0, 0, 0, 1])
        gt_frames_x = nn.functional.pad(gt_frames, [0, 1, 0, 0])
        gt_frames_y = nn.functional.pad(gt_frames, [0, 0, 0, 1])
        gen_dx = torch.abs(nn.functional.conv2d(gen_frames_x, self.filter_x))
        gen_dy = torch.abs(nn.functional.conv2d(gen_frames_y, self.filter_y))
        gt_dx = torch.abs(nn.functional.conv2d(gt_frames_x, self.filter_x))
        gt_dy = torch.abs(nn.functional.conv2d(gt_frames_y, self.filter_y))
        return torch.mean(torch.abs(gt_dx - gen_dx) + torch.abs(gt_dy - gen_dy))

class Flow_Loss(nn.Module):
    def forward(self, gen_flows, gt_flows):
        return torch.mean(torch.abs(gen_flows - gt_flows))

class Adversarial_Loss(nn.Module):
    def forward(self, fake_outputs):
        return torch.mean((fake_outputs - 1) ** 2 / 2)

class Discriminate_Loss(nn.Module):
    def forward(self, real_outputs, fake_outputs):
        return torch.mean((real_outputs - 1) ** 2 / 2) + torch.mean(fake_outputs ** 2 / 2)

# stand-ins for UNet(input_channels=12, output_channel=3), PixelDiscriminator(input_nc=3) and LiteFlownet
generator = nn.Sequential(nn.Conv2d(12, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, 3, 3, 1, 1), nn.Tanh())
discriminator = nn.Sequential(nn.Conv2d(3, 16, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 1))
flow_net = nn.Conv2d(6, 2, 3, 1, 1).eval()
for p in flow_net.parameters():
    p.requires_grad = False

optimizer_G = torch.optim.Adam(generator.parameters(), lr=0.0002)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=0.00002)
adversarial_loss = Adversarial_Loss()
discriminate_loss = Discriminate_Loss()
gradient_loss = Gradient_Loss(3)
flow_loss = Flow_Loss()
intensity_loss = Intensity_Loss()
generator = generator.train()
discriminator = discriminator.train()
# %%
clips = torch.rand(2, 15, 16, 16) * 2 - 1
input_frames = clips[:, 0:12, :, :]  # (n, 12, 256, 256)
target_frame = clips[:, 12:15, :, :]  # (n, 3, 256, 256)
input_last = input_frames[:, 9:12, :, :]  # use for flow_loss

G_frame = generator(input_frames)

gt_flow_input = torch.cat([input_last, target_frame], 1)
pred_flow_input = torch.cat([input_last, G_frame], 1)
# No need to train flow_net, use .detach() to cut off gradients.
flow_gt = flow_net(gt_flow_input).detach()
flow_pred = flow_net(pred_flow_input).detach()

inte_l = intensity_loss(G_frame, target_frame)
grad_l = gradient_loss(G_frame, target_frame)
fl_l = flow_loss(flow_pred, flow_gt)
g_l = adversarial_loss(discriminator(G_frame))
G_l_t = 1. * inte_l + 1. * grad_l + 2. * fl_l + 0.05 * g_l

# When training discriminator, don't train generator, so use .detach() to cut off gradients.
D_l = discriminate_loss(discriminator(target_frame), discriminator(G_frame.detach()))
# %%
# backward of the discriminator loss
optimizer_D.zero_grad()
D_l.backward()
# %%
# backward of the generator loss
optimizer_G.zero_grad()
G_l_t.backward()
# do .step() after all the gradients have been computed
optimizer_D.step()
optimizer_G.step()
# %%
# log the losses of this iteration
print(f'G: {G_l_t.item():.4f} D: {D_l.item():.4f}')
