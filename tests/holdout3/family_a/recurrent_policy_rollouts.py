# cause: recurrent_state_not_detached
# line: 30
# why: The agent's LSTMCell state (self.hx, self.cx) flows from one rollout into the next without detach, so the second policy-gradient update backpropagates into the first rollout's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ToyEnv:
    def __init__(self):
        self.state = torch.zeros(4)

    def step(self, action):
        reward = 1.0 if action == int(self.state[0] > 0) else 0.0
        self.state = torch.randn(4)
        return self.state, reward


class RecurrentAgent(nn.Module):
    def __init__(self, obs_dim=4, hid=16, n_actions=2):
        super().__init__()
        self.core = nn.LSTMCell(obs_dim, hid)
        self.pi = nn.Linear(hid, n_actions)
        self.hx = torch.zeros(1, hid)
        self.cx = torch.zeros(1, hid)

    def act(self, obs):
        self.hx, self.cx = self.core(obs.unsqueeze(0), (self.hx, self.cx))
        dist = torch.distributions.Categorical(logits=self.pi(self.hx))
        a = dist.sample()
        return a.item(), dist.log_prob(a)


env = ToyEnv()
agent = RecurrentAgent()
opt = torch.optim.Adam(agent.parameters(), lr=1e-2)
gamma = 0.95
obs = env.state

for update in range(4):
    log_probs, rewards = [], []
    for _ in range(8):
        a, lp = agent.act(obs)
        obs, r = env.step(a)
        log_probs.append(lp)
        rewards.append(r)
    returns, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        returns.insert(0, g)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-6)
    loss = -(torch.stack(log_probs).squeeze() * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(update, sum(rewards))
