# cause: tensor_reused_across_iterations
# line: 23
# why: log-probs appended to policy.saved_log_probs are never cleared, so the next episode's policy loss uses log-probs whose graph was already freed.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
        self.saved_log_probs = []
        self.rewards = []

    def act(self, state):
        probs = F.softmax(self.net(state), dim=-1)
        m = Categorical(probs)
        action = m.sample()
        self.saved_log_probs.append(m.log_prob(action))
        return action.item()


def finish_episode(policy, optimizer, gamma=0.99):
    R = 0.0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    policy_loss = torch.stack([-lp * G for lp, G in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for episode in range(3):
    state = torch.randn(4)
    for t in range(6):
        action = policy.act(state)
        policy.rewards.append(1.0 if action == 0 else 0.0)
        state = torch.randn(4)
    finish_episode(policy, optimizer)
