# source: https://github.com/udacity/deep-reinforcement-learning/issues/42 (reinforce/REINFORCE.ipynb with the correction proposed in the issue, per-step discounted returns G_t multiplying each saved log-prob; the Policy class cell, the reinforce() function cell and a cell calling it, run twice; a tiny CartPole-like stand-in environment instead of gym, 20 episodes instead of 1000)
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: saved_log_probs and rewards are re-created at the start of every episode inside reinforce(), so each policy_loss.backward() goes through that episode's graph only, also when the training cell is run again
# %%
import numpy as np
from collections import deque
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cpu")


class CartPoleStandIn:
    """4-dim state, 2 actions, reward 1 per step, episode ends after a random 10-30 steps"""
    def seed(self, s):
        self.rng = np.random.RandomState(s)

    def reset(self):
        self.t, self.T = 0, self.rng.randint(10, 30)
        return self.rng.randn(4)

    def step(self, action):
        self.t += 1
        return self.rng.randn(4), 1.0, self.t >= self.T, {}


env = CartPoleStandIn()
env.seed(0)
# %%
class Policy(nn.Module):
    def __init__(self, s_size=4, h_size=16, a_size=2):
        super(Policy, self).__init__()
        self.fc1 = nn.Linear(s_size, h_size)
        self.fc2 = nn.Linear(h_size, a_size)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.softmax(x, dim=1)

    def act(self, state):
        state = torch.from_numpy(state).float().unsqueeze(0).to(device)
        probs = self.forward(state).cpu()
        m = Categorical(probs)
        action = m.sample()
        return action.item(), m.log_prob(action)
# %%
policy = Policy().to(device)
optimizer = optim.Adam(policy.parameters(), lr=1e-2)


def reinforce(n_episodes=20, max_t=1000, gamma=1.0, print_every=10):
    scores_deque = deque(maxlen=100)
    scores = []
    for i_episode in range(1, n_episodes + 1):
        saved_log_probs = []
        rewards = []
        state = env.reset()
        for t in range(max_t):
            action, log_prob = policy.act(state)
            saved_log_probs.append(log_prob)
            state, reward, done, _ = env.step(action)
            rewards.append(reward)
            if done:
                break
        scores_deque.append(sum(rewards))
        scores.append(sum(rewards))

        discounted_rewards = []
        for t in range(len(rewards)):
            Gt = 0
            pwr = 0
            for r in rewards[t:]:
                Gt = Gt + gamma ** pwr * r
                pwr = pwr + 1
            discounted_rewards.append(Gt)

        policy_loss = []
        for log_prob, Gt in zip(saved_log_probs, discounted_rewards):
            policy_loss.append(-log_prob * Gt)
        policy_loss = torch.cat(policy_loss).sum()

        optimizer.zero_grad()
        policy_loss.backward()
        optimizer.step()

        if i_episode % print_every == 0:
            print('Episode {}\tAverage Score: {:.2f}'.format(i_episode, np.mean(scores_deque)))
    return scores
# %%
scores = reinforce()
