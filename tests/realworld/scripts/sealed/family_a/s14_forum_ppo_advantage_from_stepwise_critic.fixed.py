# source: variant of https://discuss.pytorch.org/t/pytorch-runtimeerror-trying-to-backward-through-the-graph-a-second-time/191396 (the PPO implementation the post describes: V(s) and Q(s,a) function approximators, each a class with forward, MSE loss and SGD methods, fitted at every time step; the clipped surrogate computed at every step; stochastic gradient ascent on the policy at the end of the episode. The linked code is not shown, so the classes are written from that description, with a random stand-in environment)
# style: rl
# cause: shared_subgraph_multiple_backward
# line: 124
# expert: The advantage A(s,a) is computed from the outputs of the V and Q networks with their graphs attached, and those very graphs are backpropagated (and freed) by the per-step SGD of the value functions; the clipped surrogates kept for the end of the episode still depend on them, so the policy's SGA backward runs through the freed value-network graphs. The advantage has to be a constant for the policy update: compute it detached (advantage.detach()) instead of retaining graphs.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)


class RandomEnv:
    """Stands in for the gym environment: 4-d observations, 2 actions, 12-step episodes."""

    def __init__(self, obs_dim=4, horizon=12):
        self.obs_dim = obs_dim
        self.horizon = horizon

    def reset(self):
        self.t = 0
        return np.random.randn(self.obs_dim).astype(np.float32)

    def step(self, action):
        self.t += 1
        obs = np.random.randn(self.obs_dim).astype(np.float32)
        reward = 1.0 if action == int(obs[0] > 0) else 0.0
        return obs, reward, self.t >= self.horizon


class StateValueFunction(nn.Module):
    """V(s)"""

    def __init__(self, obs_dim, hidden=32, lr=1e-2):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, state):
        return self.fc2(torch.tanh(self.fc1(state)))

    def mse_loss(self, prediction, target):
        return F.mse_loss(prediction, target)

    def sgd(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class ActionValueFunction(nn.Module):
    """Q(s, a)"""

    def __init__(self, obs_dim, n_actions, hidden=32, lr=1e-2):
        super().__init__()
        self.n_actions = n_actions
        self.fc1 = nn.Linear(obs_dim + n_actions, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)

    def forward(self, state, action):
        one_hot = F.one_hot(torch.tensor(action), self.n_actions).float()
        return self.fc2(torch.tanh(self.fc1(torch.cat([state, one_hot]))))

    def mse_loss(self, prediction, target):
        return F.mse_loss(prediction, target)

    def sgd(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class PolicyNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32, lr=3e-3, clip=0.2):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_actions)
        self.clip = clip
        self.optimizer = torch.optim.Adam(self.parameters(), lr=lr)

    def forward(self, state):
        return Categorical(logits=self.fc2(torch.tanh(self.fc1(state))))

    def clipped_surrogate(self, state, action, old_log_prob, advantage):
        new_log_prob = self.forward(state).log_prob(torch.tensor(action))
        ratio = torch.exp(new_log_prob - old_log_prob)
        clipped = torch.clamp(ratio, 1 - self.clip, 1 + self.clip)
        return torch.min(ratio * advantage, clipped * advantage)

    def sga(self, surrogates):
        objective = torch.stack(surrogates).mean()
        self.optimizer.zero_grad()
        (-objective).backward()
        self.optimizer.step()
        return objective.item()


gamma = 0.99
env = RandomEnv()
policy = PolicyNetwork(4, 2)
V = StateValueFunction(4)
Q = ActionValueFunction(4, 2)

for episode in range(3):
    state = torch.from_numpy(env.reset())
    surrogates = []
    done = False
    while not done:
        with torch.no_grad():
            dist = policy(state)
            action = dist.sample().item()
            old_log_prob = dist.log_prob(torch.tensor(action))
        obs, reward, done = env.step(action)
        next_state = torch.from_numpy(obs)

        # advantage A(s, a) from the two value function approximators
        v_value = V(state)
        q_value = Q(state, action)
        advantage = (q_value - v_value).detach()

        # fit the value functions at every time step
        with torch.no_grad():
            td_target = reward + gamma * (1.0 - float(done)) * V(next_state)
        V.sgd(V.mse_loss(v_value, td_target))
        Q.sgd(Q.mse_loss(q_value, td_target))

        # clipped surrogate value at the current step
        surrogates.append(policy.clipped_surrogate(state, action, old_log_prob, advantage))
        state = next_state

    # stochastic gradient ascent on the policy at the end of the episode
    objective = policy.sga(surrogates)
    print('episode', episode, 'surrogate', round(objective, 4))
