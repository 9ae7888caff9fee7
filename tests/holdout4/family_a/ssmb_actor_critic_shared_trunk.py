# cause: shared_subgraph_multiple_backward
# line: 37
# why: actor_loss and critic_loss both depend on the shared trunk features and are backpropagated separately.
import torch
import torch.nn as nn
import torch.nn.functional as F



class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, hidden=32, n_actions=2):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, s):
        h = self.trunk(s)
        return self.actor(h), self.critic(h).squeeze(-1)


torch.manual_seed(0)
net = ActorCritic()
actor_opt = torch.optim.Adam(list(net.trunk.parameters()) + list(net.actor.parameters()), lr=1e-3)
critic_opt = torch.optim.Adam(net.critic.parameters(), lr=1e-3)
for it in range(5):
    states = torch.randn(16, 4)
    logits, values = net(states)
    dist = torch.distributions.Categorical(logits=logits)
    actions = dist.sample()
    rewards = torch.randn(16)
    advantage = rewards - values.detach()
    actor_loss = -(dist.log_prob(actions) * advantage).mean()
    critic_loss = F.mse_loss(values, rewards)
    actor_opt.zero_grad()
    critic_opt.zero_grad()
    actor_loss.backward()
    critic_loss.backward()
    actor_opt.step()
    critic_opt.step()
    print(it, round(actor_loss.item(), 4), round(critic_loss.item(), 4))
