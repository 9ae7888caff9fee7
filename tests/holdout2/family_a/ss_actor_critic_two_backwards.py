# cause: shared_subgraph_multiple_backward
# line: 45
# why: Actor and critic losses share the trunk's graph; actor_loss.backward() frees it and critic_loss.backward() then needs it again.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs=4, n_actions=2, hid=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs, hid), nn.Tanh())
        self.pi = nn.Linear(hid, n_actions)
        self.v = nn.Linear(hid, 1)

    def forward(self, s):
        z = self.trunk(s)
        return self.pi(z), self.v(z).squeeze(-1)


def discounted_returns(rewards, gamma=0.95):
    out, R = [], 0.0
    for r in reversed(rewards.tolist()):
        R = r + gamma * R
        out.insert(0, R)
    return torch.tensor(out)


model = ActorCritic()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for episode in range(3):
    states = torch.randn(10, 4)
    logits, values = model(states)
    dist = Categorical(logits=logits)
    actions = dist.sample()
    rewards = (actions == (states[:, 0] > 0).long()).float()
    returns = discounted_returns(rewards)
    advantage = returns - values.detach()
    actor_loss = -(dist.log_prob(actions) * advantage).mean() - 0.01 * dist.entropy().mean()
    critic_loss = F.mse_loss(values, returns)
    opt.zero_grad()
    actor_loss.backward()
    critic_loss.backward()
    opt.step()
