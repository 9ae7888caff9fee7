# %%
import torch
from torch.distributions import Bernoulli
torch.manual_seed(0)
# %%
# a one-parameter policy for a two-armed bandit: pull arm 1 with probability p
p = torch.tensor(0.2, requires_grad=True)
optimizer = torch.optim.SGD([p], lr=0.01)
# %%
arm_means = torch.tensor([0.2, 0.8])

def pull(action):
    return (arm_means[int(action)] + 0.1 * torch.randn(())).item()
# %%
# REINFORCE updates
for step in range(5):
    pi = Bernoulli(p)
    action = pi.sample()
    reward = pull(action)
    loss = -reward * pi.log_prob(action)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        p.clamp_(0.01, 0.99)
    print(step, int(action), reward, p.item())
