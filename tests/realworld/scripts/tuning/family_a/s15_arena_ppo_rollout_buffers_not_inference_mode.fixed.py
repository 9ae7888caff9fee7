# source: https://github.com/callummcdougall/arena-v1-ldn-streamlit-new/blob/main/ch4/pages/4_%F0%9F%93%9D_W4D3-5_Proximal_Policy_Optimisation.py (ARENA W4D3-5 PPO exercise page, commit 04666c7: the train_ppo boilerplate with its "(1) rollout phase" and "(2) minibatch" slots and the dropdown "Help - I get 'RuntimeError: Trying to backward through the graph a second time...'"; the slots are filled the way a student does before reading that hint, the solution functions follow ppo_subsection/solutions.py of callummcdougall/arena-v1, and gym/wandb/tqdm are replaced by a small random vectorised CartPole stand-in, einops.rearrange by reshape)
# style: rl
# cause: tensor_reused_across_iterations
# line: 235
# expert: The rollout phase runs the actor and critic with autograd on and writes their outputs into the preallocated values/logprobs buffers, so those buffers carry the rollout graph; every minibatch then uses slices of them (old log-probs, returns = advantages + values), the first minibatch's backward frees that graph and the second one fails. The course's answer: do the rollout phase in inference mode (it only samples actions and records old values/log-probs), leaving the minibatch losses as the only graphs.
import os
import random
import re
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch as t
import torch.nn as nn
import torch.optim as optim
from torch.distributions.categorical import Categorical

torch.manual_seed(0)
np.random.seed(0)
random.seed(0)

MAIN = __name__ == "__main__"


class Discrete:
    def __init__(self, n):
        self.n = n
        self.shape = ()


class Box:
    def __init__(self, shape):
        self.shape = shape


class FakeCartPoleVecEnv:
    """Stand-in for gym.vector.SyncVectorEnv over CartPole-v1 (random dynamics)."""

    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.single_observation_space = Box((4,))
        self.single_action_space = Discrete(2)

    def reset(self):
        return np.random.randn(self.num_envs, 4).astype(np.float32)

    def step(self, action):
        assert isinstance(action, np.ndarray)
        obs = np.random.randn(self.num_envs, 4).astype(np.float32)
        reward = np.ones(self.num_envs, dtype=np.float32)
        done = np.random.rand(self.num_envs) < 0.05
        return obs, reward, done, [{} for _ in range(self.num_envs)]

    def close(self):
        pass


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    t.nn.init.orthogonal_(layer.weight, std)
    t.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    critic: nn.Sequential
    actor: nn.Sequential

    def __init__(self, envs):
        super().__init__()
        self.obs_shape = envs.single_observation_space.shape
        self.num_obs = np.array(self.obs_shape).item()
        self.num_actions = envs.single_action_space.n
        self.critic = nn.Sequential(
            layer_init(nn.Linear(self.num_obs, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(self.num_obs, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, self.num_actions), std=0.01),
        )


@t.inference_mode()
def compute_advantages(next_value, next_done, rewards, values, dones, device, gamma, gae_lambda):
    """Compute advantages using Generalized Advantage Estimation."""
    T = values.shape[0]
    next_values = torch.concat([values[1:], next_value])
    next_dones = torch.concat([dones[1:], next_done.unsqueeze(0)])
    deltas = rewards + gamma * next_values * (1.0 - next_dones) - values
    advantages = torch.zeros_like(deltas).to(device)
    advantages[-1] = deltas[-1]
    for s in reversed(range(1, T)):
        advantages[s - 1] = deltas[s - 1] + gamma * gae_lambda * (1.0 - dones[s]) * advantages[s]
    return advantages


@dataclass
class Minibatch:
    obs: t.Tensor
    logprobs: t.Tensor
    actions: t.Tensor
    advantages: t.Tensor
    returns: t.Tensor
    values: t.Tensor


def minibatch_indexes(batch_size, minibatch_size):
    assert batch_size % minibatch_size == 0
    indices = np.random.permutation(batch_size)
    indices = indices.reshape(-1, minibatch_size)  # einops: "(mb_num mb_size) -> mb_num mb_size"
    return list(indices)


def make_minibatches(obs, logprobs, actions, advantages, values, obs_shape, action_shape, batch_size, minibatch_size):
    """Flatten the environment and steps dimension into one batch dimension, then shuffle and split into minibatches."""
    returns = advantages + values
    return [
        Minibatch(
            obs.reshape((-1,) + obs_shape)[ind],
            logprobs.reshape(-1)[ind],
            actions.reshape((-1,) + action_shape)[ind],
            advantages.reshape(-1)[ind],
            returns.reshape(-1)[ind],
            values.reshape(-1)[ind],
        )
        for ind in minibatch_indexes(batch_size, minibatch_size)
    ]


def calc_policy_loss(probs, mb_action, mb_advantages, mb_logprobs, clip_coef):
    """Return the policy loss, suitable for maximisation with gradient ascent."""
    logits_diff = probs.log_prob(mb_action) - mb_logprobs
    r_theta = t.exp(logits_diff)
    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
    non_clipped = r_theta * mb_advantages
    clipped = t.clip(r_theta, 1 - clip_coef, 1 + clip_coef) * mb_advantages
    return t.minimum(non_clipped, clipped).mean()


def calc_value_function_loss(critic, mb_obs, mb_returns, v_coef):
    """Compute the value function portion of the loss function."""
    critic_prediction = critic(mb_obs)
    return 0.5 * v_coef * (critic_prediction.squeeze(-1) - mb_returns).pow(2).mean()


def calc_entropy_loss(probs, ent_coef):
    """Return the entropy loss term."""
    return ent_coef * probs.entropy().mean()


class PPOScheduler:
    def __init__(self, optimizer, initial_lr, end_lr, num_updates):
        self.optimizer = optimizer
        self.initial_lr = initial_lr
        self.end_lr = end_lr
        self.num_updates = num_updates
        self.n_step_calls = 0

    def step(self):
        self.n_step_calls += 1
        frac = self.n_step_calls / self.num_updates
        assert frac <= 1
        for param_group in self.optimizer.param_groups:
            param_group["lr"] = self.initial_lr + frac * (self.end_lr - self.initial_lr)


def make_optimizer(agent, num_updates, initial_lr, end_lr):
    optimizer = optim.Adam(agent.parameters(), lr=initial_lr, eps=1e-5, maximize=True)
    scheduler = PPOScheduler(optimizer, initial_lr, end_lr, num_updates)
    return (optimizer, scheduler)


@dataclass
class PPOArgs:
    exp_name: str = "PPO_implementation"
    seed: int = 1
    torch_deterministic: bool = True
    cuda: bool = False
    track: bool = False
    env_id: str = "CartPole-v1"
    total_timesteps: int = 128
    learning_rate: float = 0.00025
    num_envs: int = 4
    num_steps: int = 16
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 2
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    batch_size: int = 64
    minibatch_size: int = 16


def train_ppo(args):
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cpu")
    envs = FakeCartPoleVecEnv(args.num_envs)
    action_shape = envs.single_action_space.shape
    assert action_shape is not None
    assert isinstance(envs.single_action_space, Discrete), "only discrete action space is supported"
    agent = Agent(envs).to(device)
    num_updates = args.total_timesteps // args.batch_size
    (optimizer, scheduler) = make_optimizer(agent, num_updates, args.learning_rate, 0.0)
    obs = torch.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape).to(device)
    actions = torch.zeros((args.num_steps, args.num_envs) + action_shape).to(device)
    logprobs = torch.zeros((args.num_steps, args.num_envs)).to(device)
    rewards = torch.zeros((args.num_steps, args.num_envs)).to(device)
    dones = torch.zeros((args.num_steps, args.num_envs)).to(device)
    values = torch.zeros((args.num_steps, args.num_envs)).to(device)
    global_step = 0
    next_obs = torch.Tensor(envs.reset()).to(device)
    next_done = torch.zeros(args.num_envs).to(device)
    progress_bar = range(num_updates)

    for _ in progress_bar:
        for i in range(0, args.num_steps):

            global_step += args.num_envs

            # (1) Rollout phase (see detail #1)
            with t.inference_mode():
                obs[i] = next_obs
                dones[i] = next_done
                values[i] = agent.critic(next_obs).flatten()
                logits = agent.actor(next_obs)
                probs = Categorical(logits=logits)
                action = probs.sample()
                actions[i] = action
                logprobs[i] = probs.log_prob(action)
                next_obs, reward, done, info = envs.step(action.cpu().numpy())
                rewards[i] = t.from_numpy(reward).to(device)
                next_obs = t.from_numpy(next_obs).to(device)
                next_done = t.from_numpy(done).to(device, dtype=t.float)

        with t.inference_mode():
            next_value = agent.critic(next_obs).reshape(1, -1)  # einops: "env 1 -> 1 env"
            advantages = compute_advantages(
                next_value, next_done, rewards, values, dones, device, args.gamma, args.gae_lambda
            )
        for _ in range(args.update_epochs):
            minibatches = make_minibatches(
                obs,
                logprobs,
                actions,
                advantages,
                values,
                envs.single_observation_space.shape,
                action_shape,
                args.batch_size,
                args.minibatch_size,
            )
            for mb in minibatches:

                # (2) compute loss on the minibatch and step the optimizer
                logits = agent.actor(mb.obs)
                probs = Categorical(logits=logits)
                policy_loss = calc_policy_loss(probs, mb.actions, mb.advantages, mb.logprobs, args.clip_coef)
                value_loss = calc_value_function_loss(agent.critic, mb.obs, mb.returns, args.vf_coef)
                entropy_loss = calc_entropy_loss(probs, args.ent_coef)
                loss = policy_loss - value_loss + entropy_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        scheduler.step()
        print(f"global_step={global_step}, value_loss={value_loss.item():.4f}, policy_loss={policy_loss.item():.4f}")

    envs.close()


if MAIN:
    args = PPOArgs()
    train_ppo(args)
