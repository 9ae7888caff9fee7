# source: https://github.com/medipixel/rl_algorithms/pull/274 (PPOLearner.update_model of rl_algorithms/ppo/learner.py and compute_gae/ppo_iter of ppo/utils.py before the merged commit 133ff63 'Update torch version 1.3.1 to 1.6.0'; small Gaussian actor and critic MLPs stand in for the config-built Brain networks, a 16-step rollout on a random continuous-control task replaces gym, config/registry plumbing removed)
# style: rl
# cause: inplace_modified_saved_tensor
# line: 199
# expert: update_model backpropagates the same total_loss (actor + critic + entropy terms) twice: total_loss.backward(retain_graph=True), then critic_optim.step(), then total_loss.backward() again for the actor. critic_optim.step() updates the critic's weights in place while the retained graph still holds them as saved tensors for the value term, so since PyTorch 1.5 the second backward fails with "one of the variables needed for gradient computation has been modified by an inplace operation". The merged PR (updating to torch 1.6, 'In PPO, seperate loss that reapeated in training phase') splits the loss into critic_loss_ = w_value * critic_loss and actor_loss_ = actor_loss - w_entropy * entropy and backpropagates each once for its own optimizer.
import types
from collections import deque
from typing import List

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal
from torch.nn.utils import clip_grad_norm_
import torch.optim as optim

torch.manual_seed(0)
np.random.seed(0)


# ---- rl_algorithms/ppo/utils.py ----
def compute_gae(
    next_value: list,
    rewards: list,
    masks: list,
    values: list,
    gamma: float = 0.99,
    tau: float = 0.95,
) -> List:
    """Compute gae."""
    values = values + [next_value]
    gae = 0
    returns: deque = deque()

    for step in reversed(range(len(rewards))):
        delta = rewards[step] + gamma * values[step + 1] * masks[step] - values[step]
        gae = delta + gamma * tau * masks[step] * gae
        returns.appendleft(gae + values[step])

    return list(returns)


def ppo_iter(
    epoch: int,
    mini_batch_size: int,
    states: torch.Tensor,
    actions: torch.Tensor,
    values: torch.Tensor,
    log_probs: torch.Tensor,
    returns: torch.Tensor,
    advantages: torch.Tensor,
):
    """Yield mini-batches."""
    batch_size = states.size(0)
    for _ in range(epoch):
        for _ in range(batch_size // mini_batch_size):
            rand_ids = np.random.choice(batch_size, mini_batch_size)
            yield states[rand_ids, :], actions[rand_ids, :], values[
                rand_ids, :
            ], log_probs[rand_ids, :], returns[rand_ids, :], advantages[rand_ids, :]


# ---- small stand-ins for the Brain(backbone, head) actor (Gaussian head) and critic ----
class GaussianActor(nn.Module):
    def __init__(self, state_size, action_size, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.mu = nn.Linear(hidden, action_size)
        self.log_std = nn.Linear(hidden, action_size)

    def forward(self, x):
        h = self.body(x)
        mu = torch.tanh(self.mu(h))
        std = self.log_std(h).clamp(-20, 2).exp()
        dist = Normal(mu, std)
        return dist.sample(), dist


class Critic(nn.Module):
    def __init__(self, state_size, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


# ---- rl_algorithms/ppo/learner.py (PPOLearner; config/registry plumbing removed) ----
class PPOLearner:
    """Learner for PPO Agent."""

    def __init__(self, hyper_params, optim_cfg, state_size, action_size):
        self.hyper_params = hyper_params
        self.optim_cfg = optim_cfg
        self.is_discrete = False
        self.device = torch.device("cpu")
        self.state_size, self.action_size = state_size, action_size
        self._init_network()

    def _init_network(self):
        """Initialize networks and optimizers."""
        # create actor
        self.actor = GaussianActor(self.state_size, self.action_size).to(self.device)
        self.critic = Critic(self.state_size).to(self.device)

        # create optimizer
        self.actor_optim = optim.Adam(
            self.actor.parameters(),
            lr=self.optim_cfg.lr_actor,
            weight_decay=self.optim_cfg.weight_decay,
        )

        self.critic_optim = optim.Adam(
            self.critic.parameters(),
            lr=self.optim_cfg.lr_critic,
            weight_decay=self.optim_cfg.weight_decay,
        )

    def update_model(self, experience, epsilon: float):
        """Update PPO actor and critic networks"""
        states, actions, rewards, values, log_probs, next_state, masks = experience
        next_state = torch.FloatTensor(next_state).to(self.device)
        next_value = self.critic(next_state)

        returns = compute_gae(
            next_value,
            rewards,
            masks,
            values,
            self.hyper_params.gamma,
            self.hyper_params.tau,
        )

        states = torch.cat(states)
        actions = torch.cat(actions)
        returns = torch.cat(returns).detach()
        values = torch.cat(values).detach()
        log_probs = torch.cat(log_probs).detach()
        advantages = returns - values

        if self.is_discrete:
            actions = actions.unsqueeze(1)
            log_probs = log_probs.unsqueeze(1)

        if self.hyper_params.standardize_advantage:
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-7)

        actor_losses, critic_losses, total_losses = [], [], []

        for state, action, old_value, old_log_prob, return_, adv in ppo_iter(
            self.hyper_params.epoch,
            self.hyper_params.batch_size,
            states,
            actions,
            values,
            log_probs,
            returns,
            advantages,
        ):
            # calculate ratios
            _, dist = self.actor(state)
            log_prob = dist.log_prob(action)
            ratio = (log_prob - old_log_prob).exp()

            # actor_loss
            surr_loss = ratio * adv
            clipped_surr_loss = torch.clamp(ratio, 1.0 - epsilon, 1.0 + epsilon) * adv
            actor_loss = -torch.min(surr_loss, clipped_surr_loss).mean()

            # critic_loss
            value = self.critic(state)
            if self.hyper_params.use_clipped_value_loss:
                value_pred_clipped = old_value + torch.clamp(
                    (value - old_value), -epsilon, epsilon
                )
                value_loss_clipped = (return_ - value_pred_clipped).pow(2)
                value_loss = (return_ - value).pow(2)
                critic_loss = 0.5 * torch.max(value_loss, value_loss_clipped).mean()
            else:
                critic_loss = 0.5 * (return_ - value).pow(2).mean()

            # entropy
            entropy = dist.entropy().mean()

            # total_loss
            w_value = self.hyper_params.w_value
            w_entropy = self.hyper_params.w_entropy

            critic_loss_ = w_value * critic_loss
            actor_loss_ = actor_loss - w_entropy * entropy
            total_loss = critic_loss_ + actor_loss_

            # train critic
            gradient_clip_ac = self.hyper_params.gradient_clip_ac
            gradient_clip_cr = self.hyper_params.gradient_clip_cr

            self.critic_optim.zero_grad()
            critic_loss_.backward(retain_graph=True)
            clip_grad_norm_(self.critic.parameters(), gradient_clip_ac)
            self.critic_optim.step()

            # train actor
            self.actor_optim.zero_grad()
            actor_loss_.backward()
            clip_grad_norm_(self.actor.parameters(), gradient_clip_cr)
            self.actor_optim.step()

            actor_losses.append(actor_loss.item())
            critic_losses.append(critic_loss.item())
            total_losses.append(total_loss.item())

        actor_loss = sum(actor_losses) / len(actor_losses)
        critic_loss = sum(critic_losses) / len(critic_losses)
        total_loss = sum(total_losses) / len(total_losses)

        return actor_loss, critic_loss, total_loss


# ---- a short rollout (as PPOAgent collects it) on a random continuous-control task instead of gym ----
hyper_params = types.SimpleNamespace(gamma=0.99, tau=0.95, epoch=2, batch_size=8, standardize_advantage=True,
                                     use_clipped_value_loss=True, w_value=1.0, w_entropy=1e-3,
                                     gradient_clip_ac=0.5, gradient_clip_cr=1.0)
optim_cfg = types.SimpleNamespace(lr_actor=3e-4, lr_critic=1e-3, weight_decay=0.0)
learner = PPOLearner(hyper_params, optim_cfg, state_size=4, action_size=2)

for update in range(2):
    states, actions, rewards, values, log_probs, masks = [], [], [], [], [], []
    state = np.random.randn(1, 4)
    for step in range(16):
        state_t = torch.FloatTensor(state)
        selected_action, dist = learner.actor(state_t)
        log_prob = dist.log_prob(selected_action)
        value = learner.critic(state_t)
        states.append(state_t)
        actions.append(selected_action)
        values.append(value)
        log_probs.append(log_prob)
        rewards.append(torch.FloatTensor([[float(-np.square(selected_action.numpy()).sum())]]))
        masks.append(torch.FloatTensor([[1.0]]))
        state = np.random.randn(1, 4)
    experience = (states, actions, rewards, values, log_probs, state, masks)
    print(update, learner.update_model(experience, epsilon=0.2))
