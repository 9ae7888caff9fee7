# cause: shared_subgraph_multiple_backward
# line: 36
# why: actor and critic losses share the trunk graph; actor_loss.backward() frees it before critic_loss.backward() runs.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 32), nn.Tanh())
        self.pi = nn.Linear(32, 3)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h).squeeze(-1)


model = ActorCritic()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
for update in range(3):
    states = torch.randn(8, 6)
    logits, values = model(states)
    dist = Categorical(logits=logits)
    actions = dist.sample()
    rewards = (actions == 1).float()
    advantages = rewards - values.detach()
    actor_loss = -(dist.log_prob(actions) * advantages).mean() - 0.01 * dist.entropy().mean()
    critic_loss = F.mse_loss(values, rewards)
    optimizer.zero_grad()
    actor_loss.backward()
    critic_loss.backward()
    optimizer.step()
