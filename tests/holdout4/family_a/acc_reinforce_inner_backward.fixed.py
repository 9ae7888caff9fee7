import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)


def fake_env_step(state, action):
    next_state = state + 0.1 * (action * 2 - 1) + 0.05 * torch.randn(4)
    reward = float(-next_state.abs().sum())
    return next_state, reward


returns_log = []
for episode in range(3):
    state = torch.randn(4)
    policy_loss = torch.zeros(())
    ep_return = 0.0
    for t in range(10):
        dist = torch.distributions.Categorical(logits=policy(state))
        action = dist.sample()
        state, reward = fake_env_step(state, action.item())
        ep_return += reward
        policy_loss = policy_loss - dist.log_prob(action) * reward
    opt.zero_grad()
    policy_loss.backward()
    opt.step()
    returns_log.append(ep_return)
    print("episode", episode, "return", round(ep_return, 3))
