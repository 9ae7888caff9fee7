# cause: shared_subgraph_multiple_backward
# line: 47
# why: policy_loss and value_loss both depend on the shared torso features, and the second backward (value_loss) runs through the torso graph freed by the first.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3):
        super().__init__()
        self.torso = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.actor = nn.Linear(32, n_actions)
        self.critic = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.torso(obs)
        return self.actor(h), self.critic(h).squeeze(-1)


def fake_rollout(n=10, obs_dim=6):
    obs = torch.randn(n, obs_dim)
    rewards = (obs[:, 0] > 0).float()
    return obs, rewards


net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
gamma, episode = 0.9, 0

while episode < 4:
    obs, rewards = fake_rollout()
    logits, values = net(obs)
    dist = torch.distributions.Categorical(logits=logits)
    actions = dist.sample()
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    advantage = (returns - values).detach()
    policy_loss = -(dist.log_prob(actions) * advantage).mean() - 0.01 * dist.entropy().mean()
    value_loss = F.smooth_l1_loss(values, returns)
    opt.zero_grad()
    policy_loss.backward()
    value_loss.backward()
    opt.step()
    episode += 1
    print(episode, policy_loss.item(), value_loss.item())
