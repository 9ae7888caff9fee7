# source: https://github.com/pytorch/examples/issues/151
import random
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
gamma = 0.99
eps = np.finfo(np.float32).eps.item()


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.action_head = nn.Linear(16, 2)
        self.value_head = nn.Linear(16, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_scores = self.action_head(x)
        state_values = self.value_head(x)
        return F.softmax(action_scores, dim=-1), state_values


model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)
experience = []   # (state, action, R): plain data, no graph


def select_action(state):
    state_t = torch.from_numpy(state).float()
    with torch.no_grad():
        probs, state_value = model(state_t)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append((state, action.item()))
    return action.item()


def finish_episode(batch):
    policy_losses = []
    value_losses = []
    for state, action, R in batch:
        probs, value = model(torch.from_numpy(state).float())
        log_prob = Categorical(probs).log_prob(torch.tensor(action))
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()


for i_episode in range(3):
    state = np.random.randn(4).astype(np.float32)
    for t in range(6):
        action = select_action(state)
        state = np.random.randn(4).astype(np.float32)
        model.rewards.append(1.0 if action == 0 else 0.0)
    R = 0
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (s, a), R in zip(model.saved_actions, returns.tolist()):
        experience.append((s, a, R))
    for _ in range(2):
        finish_episode(random.sample(experience, 4))
    del model.rewards[:]
    del model.saved_actions[:]
    print('episode', i_episode)
