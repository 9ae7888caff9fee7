# cause: shared_subgraph_multiple_backward
# line: 36
# why: Actor and critic losses share the body's graph; actor_loss.backward() frees it before critic_loss.backward().
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 32), nn.Tanh())
        self.pi = nn.Linear(32, 2)
        self.v = nn.Linear(32, 1)

    def forward(self, s):
        h = self.body(s)
        return self.pi(h), self.v(h)


ac = ActorCritic()
opt = torch.optim.Adam(ac.parameters(), lr=3e-4)
for episode in range(3):
    states = torch.randn(5, 4)
    actions = torch.randint(0, 2, (5,))
    returns = torch.randn(5)
    logits, values = ac(states)
    values = values.squeeze(1)
    adv = returns - values.detach()
    logp = F.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    actor_loss = -(logp * adv).mean()
    critic_loss = F.mse_loss(values, returns)
    opt.zero_grad()
    actor_loss.backward()
    critic_loss.backward()
    opt.step()
    print(episode, actor_loss.item(), critic_loss.item())
