# cause: computed_before_loop
# line: 13
# why: the Gaussian NLL is computed once before the while loop, so the second step backpropagates the same freed graph again.
import torch

torch.manual_seed(0)

data = 2.0 + 0.5 * torch.randn(200)
mu = torch.zeros(1, requires_grad=True)
log_sigma = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.Adam([mu, log_sigma], lr=0.05)

nll = -torch.distributions.Normal(mu, log_sigma.exp()).log_prob(data).mean()
step = 0
while step < 50:
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    step += 1
