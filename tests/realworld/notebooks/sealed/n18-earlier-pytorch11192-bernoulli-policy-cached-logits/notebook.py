# source: variant of https://github.com/pytorch/pytorch/issues/11192
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 1 line 3
# expert: the Bernoulli policy object is built once in an earlier cell from probs=p; its logits are a lazily computed, cached function of p, so the first log_prob builds that piece of graph and every later log_prob reuses it. As discussed in the issue, losses computed through the same distribution object share that cached subgraph, so the second backward (here: the second update step) finds it freed. Build the distribution from p again for each loss, i.e. create pi inside the loop.
# %%
import torch
from torch.distributions import Bernoulli
torch.manual_seed(0)
# %%
# a one-parameter policy for a two-armed bandit: pull arm 1 with probability p
p = torch.tensor(0.2, requires_grad=True)
pi = Bernoulli(p)
optimizer = torch.optim.SGD([p], lr=0.01)
# %%
arm_means = torch.tensor([0.2, 0.8])

def pull(action):
    return (arm_means[int(action)] + 0.1 * torch.randn(())).item()
# %%
# REINFORCE updates
for step in range(5):
    action = pi.sample()
    reward = pull(action)
    loss = -reward * pi.log_prob(action)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        p.clamp_(0.01, 0.99)
    print(step, int(action), reward, p.item())
