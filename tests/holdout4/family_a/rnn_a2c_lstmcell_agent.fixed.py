import torch
import torch.nn as nn
import torch.nn.functional as F



class RecurrentActorCritic(nn.Module):
    def __init__(self, obs_dim=6, hidden=32, n_actions=3):
        super().__init__()
        self.lstm = nn.LSTMCell(obs_dim, hidden)
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs, hc):
        h, c = self.lstm(obs, hc)
        return self.pi(h), self.v(h), (h, c)


torch.manual_seed(0)
agent = RecurrentActorCritic()
opt = torch.optim.Adam(agent.parameters(), lr=1e-3)
n_steps = 5
hc = (torch.zeros(1, 32), torch.zeros(1, 32))
obs = torch.randn(1, 6)
for update in range(4):
    hc = (hc[0].detach(), hc[1].detach())
    log_probs, values, rewards = [], [], []
    for _ in range(n_steps):
        logits, value, hc = agent(obs, hc)
        dist = torch.distributions.Categorical(logits=logits)
        a = dist.sample()
        log_probs.append(dist.log_prob(a))
        values.append(value.squeeze())
        obs = torch.randn(1, 6)
        rewards.append(1.0 if a.item() == 0 else 0.0)
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + 0.99 * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    values = torch.stack(values)
    log_probs = torch.stack(log_probs).squeeze(-1)
    adv = returns - values.detach()
    loss = -(log_probs * adv).mean() + 0.5 * F.mse_loss(values, returns)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("update", update, round(loss.item(), 4))
