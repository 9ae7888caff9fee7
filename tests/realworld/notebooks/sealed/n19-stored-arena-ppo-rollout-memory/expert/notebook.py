# %%
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import List, Optional
import numpy as np
import torch
import torch as t
import torch.nn as nn
import torch.optim as optim
from torch.distributions.categorical import Categorical

device = t.device("cpu")
random.seed(0)
np.random.seed(0)
t.manual_seed(0)


@dataclass
class PPOArgs:
    seed: int = 1
    track: bool = False
    env_id: str = "CartPole-v1"
    total_timesteps: int = 64
    learning_rate: float = 0.00025
    num_envs: int = 2
    num_steps: int = 8
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 2
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    batch_size: int = 16
    minibatch_size: int = 4


class _Space:
    def __init__(self, shape=None, n=None):
        self.shape, self.n = shape, n


class SyncVectorEnv:
    """Stand-in for gym.vector.SyncVectorEnv over CartPole: 4-dim observations, 2 actions."""

    def __init__(self, num_envs, seed=0):
        self.num_envs = num_envs
        self.single_observation_space = _Space(shape=(4,))
        self.single_action_space = _Space(shape=(), n=2)
        self.rng = np.random.RandomState(seed)
        self.steps = np.zeros(num_envs, dtype=int)

    def reset(self):
        self.steps[:] = 0
        return self.rng.uniform(-0.05, 0.05, (self.num_envs, 4)).astype(np.float32)

    def step(self, actions):
        self.steps += 1
        obs = self.rng.uniform(-0.05, 0.05, (self.num_envs, 4)).astype(np.float32)
        reward = np.ones(self.num_envs, dtype=np.float32)
        done = self.rng.rand(self.num_envs) < 0.1
        info = [{"episode": {"l": int(s), "r": float(s)}} if d else {} for s, d in zip(self.steps, done)]
        self.steps[done] = 0
        return obs, reward, done, info


@dataclass
class Minibatch:
    obs: t.Tensor
    actions: t.Tensor
    logprobs: t.Tensor
    advantages: t.Tensor
    returns: t.Tensor
    values: t.Tensor

class Memory():

    def __init__(self, envs: SyncVectorEnv, args: PPOArgs, device):
        self.envs = envs
        self.args = args
        self.next_obs = None
        self.next_done = None
        self.next_value = None
        self.device = device
        self.global_step = 0
        self.reset()

    def add(self, *data):
        '''Adds an experience to storage. Called during the rollout phase.
        '''
        info, *experiences = data
        self.experiences.append(experiences)
        for item in info:
            if "episode" in item.keys():
                self.episode_lengths.append(item["episode"]["l"])
                self.episode_returns.append(item["episode"]["r"])
                self.add_vars_to_log(
                    episode_length = item["episode"]["l"],
                    episode_return = item["episode"]["r"],
                )
            self.global_step += 1

    def get_minibatches(self) -> List[Minibatch]:
        '''Computes advantages, and returns minibatches to be used in the 
        learning phase.
        '''
        obs, dones, actions, logprobs, rewards, values = [t.stack(arr) for arr in zip(*self.experiences)]
        advantages = compute_advantages(self.next_value, self.next_done, rewards, values, dones, self.device, self.args.gamma, self.args.gae_lambda)
        returns = advantages + values
        return make_minibatches(
            obs, actions, logprobs, advantages, values, returns, self.args.batch_size, self.args.minibatch_size
        )

    def get_progress_bar_description(self) -> Optional[str]:
        if self.episode_lengths:
            global_step = self.global_step
            avg_episode_length = np.mean(self.episode_lengths)
            avg_episode_return = np.mean(self.episode_returns)
            return f"{global_step=:<06}, {avg_episode_length=:<3.0f}, {avg_episode_return=:<3.0f}"

    def reset(self) -> None:
        '''Function to be called at the end of each rollout period, to make 
        space for new experiences to be generated.
        '''
        self.experiences = []
        self.vars_to_log = defaultdict(dict)
        self.episode_lengths = []
        self.episode_returns = []
        if self.next_obs is None:
            self.next_obs = torch.tensor(self.envs.reset()).to(self.device)
            self.next_done = torch.zeros(self.envs.num_envs).to(self.device, dtype=t.float)

    def add_vars_to_log(self, **kwargs):
        self.vars_to_log[self.global_step] |= kwargs
# %%
class PPOScheduler:
    def __init__(self, optimizer, initial_lr: float, end_lr: float, num_updates: int):
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

def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    t.nn.init.orthogonal_(layer.weight, std)
    t.nn.init.constant_(layer.bias, bias_const)
    return layer

class Agent(nn.Module):
    critic: nn.Sequential
    actor: nn.Sequential

    def __init__(self, envs: SyncVectorEnv):
        super().__init__()
        self.obs_shape = envs.single_observation_space.shape
        self.num_obs = np.array(self.obs_shape).item()
        self.num_actions = envs.single_action_space.n
        self.critic = nn.Sequential(
            layer_init(nn.Linear(self.num_obs, 16)), nn.Tanh(),
            layer_init(nn.Linear(16, 16)), nn.Tanh(),
            layer_init(nn.Linear(16, 1), std=1.0)
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(self.num_obs, 16)), nn.Tanh(),
            layer_init(nn.Linear(16, 16)), nn.Tanh(),
            layer_init(nn.Linear(16, self.num_actions), std=0.01)
        )

    def rollout(self, memory: Memory, args: PPOArgs, envs: SyncVectorEnv) -> None:
        '''Performs the rollout phase, as described in '37 Implementational Details'.
        '''
        device = memory.device
        obs = memory.next_obs
        done = memory.next_done

        for step in range(args.num_steps):

            # Generate the next set of new experiences (one for each env)
            with t.inference_mode():
                value = self.critic(obs).flatten()
                logits = self.actor(obs)
            probs = Categorical(logits=logits)
            action = probs.sample()
            logprob = probs.log_prob(action)
            next_obs, reward, next_done, info = envs.step(action.cpu().numpy())
            reward = t.from_numpy(reward).to(device)

            # (s_t, d_t, a_t, logpi(a_t|s_t), r_t+1, v(s_t))
            memory.add(info, obs, done, action, logprob, reward, value)

            obs = t.from_numpy(next_obs).to(device)
            done = t.from_numpy(next_done).to(device, dtype=t.float)

        # Store last (obs, done, value) tuple, since we need it to compute advantages
        memory.next_obs = obs
        memory.next_done = done
        with t.inference_mode():
            memory.next_value = self.critic(obs).flatten()

    def learn(self, memory: Memory, args: PPOArgs, optimizer: optim.Adam, scheduler: PPOScheduler) -> None:
        '''Performs the learning phase, as described in '37 Implementational 
        Details'.
        '''
        for _ in range(args.update_epochs):
            minibatches = memory.get_minibatches()
            # Compute loss on each minibatch, and step the optimizer
            for mb in minibatches:
                logits = self.actor(mb.obs)
                probs = Categorical(logits=logits)
                values = self.critic(mb.obs)
                clipped_surrogate_objective = calc_clipped_surrogate_objective(probs, mb.actions, mb.advantages, mb.logprobs, args.clip_coef)
                value_loss = calc_value_function_loss(values, mb.returns, args.vf_coef)
                entropy_bonus = calc_entropy_bonus(probs, args.ent_coef)
                total_objective_function = clipped_surrogate_objective - value_loss + entropy_bonus
                optimizer.zero_grad()
                total_objective_function.backward()
                nn.utils.clip_grad_norm_(self.parameters(), args.max_grad_norm)
                optimizer.step()

        # Step the scheduler
        scheduler.step()
# %%
def make_optimizer(agent: Agent, num_updates: int, initial_lr: float, end_lr: float) -> tuple[optim.Adam, PPOScheduler]:
    optimizer = optim.Adam(agent.parameters(), lr=initial_lr, eps=1e-5, maximize=True)
    scheduler = PPOScheduler(optimizer, initial_lr, end_lr, num_updates)
    return (optimizer, scheduler)

def compute_advantages(next_value, next_done, rewards, values, dones, device, gamma, gae_lambda) -> t.Tensor:
    '''Compute advantages using Generalized Advantage Estimation.'''
    T = values.shape[0]
    next_values = torch.concat([values[1:], next_value.unsqueeze(0)])
    next_dones = torch.concat([dones[1:], next_done.unsqueeze(0)])
    deltas = rewards + gamma * next_values * (1.0 - next_dones) - values
    advantages = torch.zeros_like(deltas).to(device)
    advantages[-1] = deltas[-1]
    for t in reversed(range(1, T)):
        advantages[t-1] = deltas[t-1] + gamma * gae_lambda * (1.0 - dones[t]) * advantages[t]
    return advantages

def minibatch_indexes(batch_size: int, minibatch_size: int) -> List[np.ndarray]:
    assert batch_size % minibatch_size == 0
    indices = np.random.permutation(batch_size)
    indices = indices.reshape(-1, minibatch_size)  # einops: "(mb_num mb_size) -> mb_num mb_size"
    return list(indices)

def make_minibatches(obs, actions, logprobs, advantages, values, returns, batch_size, minibatch_size) -> List[Minibatch]:
    '''Flatten the environment and steps dimension into one batch dimension, then shuffle and split into minibatches.'''
    return [
        Minibatch(
            obs.flatten(0, 1)[ind], 
            actions.flatten(0, 1)[ind], 
            logprobs.flatten(0, 1)[ind], 
            advantages.flatten(0, 1)[ind], 
            values.flatten(0, 1)[ind],
            returns.flatten(0, 1)[ind], 
        )
        for ind in minibatch_indexes(batch_size, minibatch_size)
    ]

def calc_clipped_surrogate_objective(probs, mb_action, mb_advantages, mb_logprobs, clip_coef) -> t.Tensor:
    logits_diff = probs.log_prob(mb_action) - mb_logprobs
    r_theta = t.exp(logits_diff)
    mb_advantages = (mb_advantages - mb_advantages.mean()) / mb_advantages.std()
    non_clipped = r_theta * mb_advantages
    clipped = t.clip(r_theta, 1-clip_coef, 1+clip_coef) * mb_advantages
    return t.minimum(non_clipped, clipped).mean()

def calc_value_function_loss(values: t.Tensor, mb_returns: t.Tensor, vf_coef: float) -> t.Tensor:
    return 0.5 * vf_coef * (values - mb_returns).pow(2).mean()

def calc_entropy_bonus(probs: Categorical, ent_coef: float):
    return ent_coef * probs.entropy().mean()
# %%
args = PPOArgs()
envs = SyncVectorEnv(args.num_envs, seed=args.seed)
agent = Agent(envs).to(device)
num_updates = args.total_timesteps // args.batch_size
(optimizer, scheduler) = make_optimizer(agent, num_updates, args.learning_rate, 0.0)
memory = Memory(envs, args, device)
# %%
agent.rollout(memory, args, envs)
print(len(memory.experiences), memory.get_progress_bar_description())
# %%
agent.learn(memory, args, optimizer, scheduler)
memory.reset()
print(scheduler.optimizer.param_groups[0]["lr"])
