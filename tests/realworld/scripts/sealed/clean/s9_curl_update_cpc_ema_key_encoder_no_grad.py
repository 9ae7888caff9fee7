# source: https://github.com/MishaLaskin/curl/issues/12
# style: contrastive
# expert: The issue asks why `z_pos = self.CURL.encode(obs_pos, ema=True)` is not passed detach=True as in the paper's pseudocode; it does not need to be, because `encode(..., ema=True)` runs the momentum (target) encoder under `torch.no_grad()`, so the key branch carries no graph. Only the anchor encoder and W get gradients, every update_cpc builds a fresh graph that is backpropagated once, and the target encoder is moved by soft_update_params outside autograd.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def soft_update_params(net, target_net, tau):
    for param, target_param in zip(net.parameters(), target_net.parameters()):
        target_param.data.copy_(tau * param.data + (1 - tau) * target_param.data)


class PixelEncoder(nn.Module):
    def __init__(self, obs_shape, feature_dim):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv2d(obs_shape[0], 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=1))
        self.fc = nn.LazyLinear(feature_dim)
        self.ln = nn.LayerNorm(feature_dim)

    def forward(self, obs, detach=False):
        h = self.convs(obs / 255.).flatten(1)
        if detach:
            h = h.detach()
        return torch.tanh(self.ln(self.fc(h)))


class Critic(nn.Module):
    def __init__(self, obs_shape, action_dim, feature_dim):
        super().__init__()
        self.encoder = PixelEncoder(obs_shape, feature_dim)
        self.Q1 = nn.Sequential(nn.Linear(feature_dim + action_dim, 32), nn.ReLU(), nn.Linear(32, 1))
        self.Q2 = nn.Sequential(nn.Linear(feature_dim + action_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs, action, detach_encoder=False):
        z = self.encoder(obs, detach=detach_encoder)
        za = torch.cat([z, action], dim=1)
        return self.Q1(za), self.Q2(za)


class CURL(nn.Module):
    def __init__(self, z_dim, critic, critic_target):
        super().__init__()
        self.encoder = critic.encoder
        self.encoder_target = critic_target.encoder
        self.W = nn.Parameter(torch.rand(z_dim, z_dim))

    def encode(self, x, detach=False, ema=False):
        if ema:
            with torch.no_grad():
                z_out = self.encoder_target(x)
        else:
            z_out = self.encoder(x)
        if detach:
            z_out = z_out.detach()
        return z_out

    def compute_logits(self, z_a, z_pos):
        Wz = torch.matmul(self.W, z_pos.T)  # (z_dim,B)
        logits = torch.matmul(z_a, Wz)  # (B,B)
        logits = logits - torch.max(logits, 1)[0][:, None]
        return logits


class CurlSacAgent:
    def __init__(self, obs_shape, action_dim, feature_dim=16, critic_tau=0.01, encoder_tau=0.05, discount=0.99):
        self.critic = Critic(obs_shape, action_dim, feature_dim)
        self.critic(torch.zeros(1, *obs_shape), torch.zeros(1, action_dim))  # materialize lazy layers
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_tau, self.encoder_tau, self.discount = critic_tau, encoder_tau, discount
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.CURL = CURL(feature_dim, self.critic, self.critic_target)
        self.encoder_optimizer = torch.optim.Adam(self.critic.encoder.parameters(), lr=1e-3)
        self.cpc_optimizer = torch.optim.Adam(self.CURL.parameters(), lr=1e-3)
        self.cross_entropy_loss = nn.CrossEntropyLoss()

    def update_critic(self, obs, action, reward, next_obs, not_done):
        with torch.no_grad():
            next_action = torch.tanh(torch.randn_like(action))
            target_Q1, target_Q2 = self.critic_target(next_obs, next_action)
            target_Q = reward + not_done * self.discount * torch.min(target_Q1, target_Q2)
        current_Q1, current_Q2 = self.critic(obs, action)
        critic_loss = F.mse_loss(current_Q1, target_Q) + F.mse_loss(current_Q2, target_Q)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()

    def update_cpc(self, obs_anchor, obs_pos):
        z_a = self.CURL.encode(obs_anchor)
        z_pos = self.CURL.encode(obs_pos, ema=True)

        logits = self.CURL.compute_logits(z_a, z_pos)
        labels = torch.arange(logits.shape[0]).long()
        loss = self.cross_entropy_loss(logits, labels)

        self.encoder_optimizer.zero_grad()
        self.cpc_optimizer.zero_grad()
        loss.backward()

        self.encoder_optimizer.step()
        self.cpc_optimizer.step()
        return loss.item()

    def update(self, batch, step):
        obs, action, reward, next_obs, not_done, cpc_kwargs = batch
        self.update_critic(obs, action, reward, next_obs, not_done)
        soft_update_params(self.critic.Q1, self.critic_target.Q1, self.critic_tau)
        soft_update_params(self.critic.Q2, self.critic_target.Q2, self.critic_tau)
        soft_update_params(self.critic.encoder, self.critic_target.encoder, self.encoder_tau)
        return self.update_cpc(cpc_kwargs["obs_anchor"], cpc_kwargs["obs_pos"])


def random_crop(imgs, out=16):
    n, c, h, w = imgs.shape
    i, j = torch.randint(0, h - out + 1, (1,)).item(), torch.randint(0, w - out + 1, (1,)).item()
    return imgs[:, :, i:i + out, j:j + out]


obs_shape, action_dim, B = (3, 16, 16), 2, 8
agent = CurlSacAgent(obs_shape, action_dim)
for step in range(4):
    raw = torch.randint(0, 256, (B, 3, 20, 20)).float()
    obs = random_crop(raw)
    batch = (obs, torch.rand(B, action_dim) * 2 - 1, torch.randn(B, 1), random_crop(raw), torch.ones(B, 1),
             {"obs_anchor": obs, "obs_pos": random_crop(raw)})
    print(step, agent.update(batch, step))
