# source: variant of https://github.com/vwxyzjn/cleanrl/commit/5a3a092564a9fcf2cb748ca2ad23007989567f2e ("PPO # fix the retain_graph=True": cleanrl/ppo_continuous_action.py as it was before this commit, without the retain_graph=True workaround it carried; a random stand-in environment with a fixed episode length instead of HopperBulletEnv, no tensorboard/wandb logging)
# style: rl
# cause: computed_before_loop
# line: 117
# expert: During the rollout the critic is called with autograd on and its outputs are written into the preallocated values tensor, so values carries one graph for the whole episode; the update loop then builds vf_loss from values[:step+1] in every one of the update_epochs, and the second epoch backpropagates into the graph the first epoch freed. The commit that removed the retain_graph=True workaround runs the rollout under torch.no_grad() and recomputes newvalues = vf.forward(obs[:step+1]) inside each update epoch for the value loss.
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions.normal import Normal

parser = argparse.ArgumentParser(description='PPO agent')
parser.add_argument('--seed', type=int, default=1)
parser.add_argument('--learning-rate', type=float, default=7e-4)
parser.add_argument('--episode-length', type=int, default=8)
parser.add_argument('--total-timesteps', type=int, default=16)
parser.add_argument('--gamma', type=float, default=0.99)
parser.add_argument('--vf-coef', type=float, default=0.25)
parser.add_argument('--max-grad-norm', type=float, default=0.5)
parser.add_argument('--ent-coef', type=float, default=0.01)
parser.add_argument('--clip-coef', type=float, default=0.2)
parser.add_argument('--update-epochs', type=int, default=3)
args = parser.parse_args([])

torch.manual_seed(0)
np.random.seed(args.seed)
device = torch.device('cpu')


class RandomEnv:
    """Stands in for HopperBulletEnv-v0: 6-d observations, 2-d actions in [-1, 1]."""
    observation_shape = (6,)
    action_shape = (2,)
    low, high = -np.ones(2), np.ones(2)

    def reset(self):
        return np.random.randn(*self.observation_shape)

    def step(self, action):
        return np.random.randn(*self.observation_shape), float(-np.square(action).sum()), False, {}


env = RandomEnv()
input_shape, output_shape = env.observation_shape[0], env.action_shape[0]


def preprocess_obs_fn(x):
    return torch.Tensor(x).float().to(device)


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.fc1 = nn.Linear(input_shape, 120)
        self.fc2 = nn.Linear(120, 84)
        self.mean = nn.Linear(84, output_shape)
        self.logstd = nn.Parameter(torch.zeros(1, output_shape))

    def forward(self, x):
        x = preprocess_obs_fn(x)
        x = torch.tanh(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        action_mean = self.mean(x)
        action_logstd = self.logstd.expand_as(action_mean)
        return action_mean, action_logstd

    def get_action(self, x):
        mean, logstd = self.forward(x)
        std = torch.exp(logstd)
        probs = Normal(mean, std)
        action = probs.sample()
        return action, probs.log_prob(action).sum(1)

    def get_logproba(self, x, actions):
        action_mean, action_logstd = self.forward(x)
        action_std = torch.exp(action_logstd)
        dist = Normal(action_mean, action_std)
        return dist.log_prob(actions).sum(1)


class Value(nn.Module):
    def __init__(self):
        super(Value, self).__init__()
        self.fc1 = nn.Linear(input_shape, 64)
        self.fc2 = nn.Linear(64, 1)

    def forward(self, x):
        x = preprocess_obs_fn(x)
        x = torch.tanh(self.fc1(x))
        x = self.fc2(x)
        return x


pg = Policy().to(device)
vf = Value().to(device)
optimizer = optim.Adam(list(pg.parameters()) + list(vf.parameters()), lr=args.learning_rate)

global_step = 0
while global_step < args.total_timesteps:
    next_obs = np.array(env.reset())
    actions = np.empty((args.episode_length,) + env.action_shape)
    rewards, dones = np.zeros((2, args.episode_length))
    obs = np.empty((args.episode_length,) + env.observation_shape)

    # ALGO LOGIC: put other storage logic here
    values = torch.zeros((args.episode_length), device=device)
    logprobs = np.zeros((args.episode_length,),)

    for step in range(args.episode_length):
        global_step += 1
        obs[step] = next_obs.copy()

        # ALGO LOGIC: put action logic here
        values[step] = vf.forward(obs[step:step+1])
        action, logproba = pg.get_action(obs[step:step+1])
        actions[step] = action.data.numpy()[0]
        logprobs[step] = logproba.data.numpy()[0]

        clipped_action = np.clip(action.tolist(), env.low, env.high)[0]
        next_obs, rewards[step], dones[step], _ = env.step(clipped_action)
        next_obs = np.array(next_obs)
        if dones[step]:
            break

    # ALGO LOGIC: training.
    returns = np.zeros_like(rewards)
    returns[step] = rewards[step]
    for t in reversed(range(rewards.shape[0]-1)):
        returns[t] = rewards[t] + args.gamma * returns[t+1] * (1-dones[t])
    advantages = returns - values.detach().cpu().numpy()

    for _ in range(args.update_epochs):
        newlogproba = pg.get_logproba(obs[:step+1], torch.Tensor(actions[:step+1]))
        ratio = torch.exp(newlogproba - torch.Tensor(logprobs[:step+1]))
        surrogate1 = ratio * torch.Tensor(advantages[:step+1])
        surrogate2 = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef) * torch.Tensor(advantages[:step+1])
        policy_loss = - torch.mean(torch.min(surrogate1, surrogate2))
        vf_loss = torch.mean((values[:step+1] - torch.Tensor(returns[:step+1])).pow(2))
        entropy_loss = torch.mean(torch.exp(newlogproba) * newlogproba)
        total_loss = policy_loss + args.vf_coef * vf_loss + args.ent_coef * entropy_loss
        optimizer.zero_grad()
        total_loss.backward()
        nn.utils.clip_grad_norm_(list(pg.parameters()) + list(vf.parameters()), args.max_grad_norm)
        optimizer.step()

    print(f"global_step={global_step}, episode_reward={rewards.sum():.3f}, value_loss={vf_loss.item():.4f}")
