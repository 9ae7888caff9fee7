# source: https://github.com/rail-berkeley/rlkit/pull/109
# style: rl
# cause: inplace_modified_saved_tensor
# line: 118
# expert: policy_loss is computed through qf1/qf2 (q_new_actions), but SACTrainer.train_from_torch calls qf1_optimizer.step() and qf2_optimizer.step() before policy_loss.backward(), so the critic weights saved in the policy-loss graph have been modified in place. The merged PR moves the policy zero_grad/backward/step block before the Q-function updates.
from collections import OrderedDict

import numpy as np
import torch
import torch.optim as optim
from torch import nn as nn

torch.manual_seed(0)


class FlattenMlp(nn.Module):
    def __init__(self, input_size, output_size, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_size, hidden), nn.ReLU(), nn.Linear(hidden, output_size))

    def forward(self, *inputs):
        return self.net(torch.cat(inputs, dim=1))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, action_dim)
        self.log_std = nn.Linear(hidden, action_dim)

    def forward(self, obs, reparameterize=True, return_log_prob=True):
        h = self.body(obs)
        mean = self.mean(h)
        log_std = self.log_std(h).clamp(-20, 2)
        std = log_std.exp()
        pre_tanh = mean + std * torch.randn_like(mean)
        action = torch.tanh(pre_tanh)
        log_prob = torch.distributions.Normal(mean, std).log_prob(pre_tanh)
        log_prob = (log_prob - torch.log(1 - action.pow(2) + 1e-6)).sum(dim=1, keepdim=True)
        return action, mean, log_std, log_prob


def soft_update_from_to(source, target, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(target_param.data * (1.0 - tau) + param.data * tau)


class SACTrainer:
    def __init__(self, policy, qf1, qf2, target_qf1, target_qf2, action_dim,
                 discount=0.99, reward_scale=1.0, policy_lr=1e-3, qf_lr=1e-3,
                 optimizer_class=optim.Adam, soft_target_tau=1e-2, target_update_period=1):
        self.policy = policy
        self.qf1 = qf1
        self.qf2 = qf2
        self.target_qf1 = target_qf1
        self.target_qf2 = target_qf2
        self.soft_target_tau = soft_target_tau
        self.target_update_period = target_update_period
        self.target_entropy = -float(action_dim)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.alpha_optimizer = optimizer_class([self.log_alpha], lr=policy_lr)
        self.qf_criterion = nn.MSELoss()
        self.policy_optimizer = optimizer_class(self.policy.parameters(), lr=policy_lr)
        self.qf1_optimizer = optimizer_class(self.qf1.parameters(), lr=qf_lr)
        self.qf2_optimizer = optimizer_class(self.qf2.parameters(), lr=qf_lr)
        self.discount = discount
        self.reward_scale = reward_scale
        self.eval_statistics = OrderedDict()
        self._n_train_steps_total = 0

    def train_from_torch(self, batch):
        rewards = batch['rewards']
        terminals = batch['terminals']
        obs = batch['observations']
        actions = batch['actions']
        next_obs = batch['next_observations']

        """
        Policy and Alpha Loss
        """
        new_obs_actions, policy_mean, policy_log_std, log_pi = self.policy(
            obs, reparameterize=True, return_log_prob=True,
        )
        alpha_loss = -(self.log_alpha * (log_pi + self.target_entropy).detach()).mean()
        self.alpha_optimizer.zero_grad()
        alpha_loss.backward()
        self.alpha_optimizer.step()
        alpha = self.log_alpha.exp()

        q_new_actions = torch.min(
            self.qf1(obs, new_obs_actions),
            self.qf2(obs, new_obs_actions),
        )
        policy_loss = (alpha * log_pi - q_new_actions).mean()

        """
        QF Loss
        """
        q1_pred = self.qf1(obs, actions)
        q2_pred = self.qf2(obs, actions)
        new_next_actions, _, _, new_log_pi = self.policy(
            next_obs, reparameterize=True, return_log_prob=True,
        )
        target_q_values = torch.min(
            self.target_qf1(next_obs, new_next_actions),
            self.target_qf2(next_obs, new_next_actions),
        ) - alpha * new_log_pi
        q_target = self.reward_scale * rewards + (1. - terminals) * self.discount * target_q_values
        qf1_loss = self.qf_criterion(q1_pred, q_target.detach())
        qf2_loss = self.qf_criterion(q2_pred, q_target.detach())

        """
        Update networks
        """
        self.qf1_optimizer.zero_grad()
        qf1_loss.backward()
        self.qf1_optimizer.step()

        self.qf2_optimizer.zero_grad()
        qf2_loss.backward()
        self.qf2_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

        """
        Soft Updates
        """
        if self._n_train_steps_total % self.target_update_period == 0:
            soft_update_from_to(self.qf1, self.target_qf1, self.soft_target_tau)
            soft_update_from_to(self.qf2, self.target_qf2, self.soft_target_tau)
        self.eval_statistics['QF1 Loss'] = np.mean(qf1_loss.item())
        self.eval_statistics['Policy Loss'] = policy_loss.item()
        self._n_train_steps_total += 1


obs_dim, action_dim, batch_size = 6, 2, 16
qf1, qf2 = FlattenMlp(obs_dim + action_dim, 1), FlattenMlp(obs_dim + action_dim, 1)
target_qf1, target_qf2 = FlattenMlp(obs_dim + action_dim, 1), FlattenMlp(obs_dim + action_dim, 1)
policy = TanhGaussianPolicy(obs_dim, action_dim)
trainer = SACTrainer(policy, qf1, qf2, target_qf1, target_qf2, action_dim)

for step in range(3):
    batch = {
        'rewards': torch.randn(batch_size, 1),
        'terminals': torch.zeros(batch_size, 1),
        'observations': torch.randn(batch_size, obs_dim),
        'actions': torch.rand(batch_size, action_dim) * 2 - 1,
        'next_observations': torch.randn(batch_size, obs_dim),
    }
    trainer.train_from_torch(batch)
print(dict(trainer.eval_statistics))
