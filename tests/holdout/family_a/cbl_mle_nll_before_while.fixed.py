import torch

torch.manual_seed(0)

data = 2.0 + 0.5 * torch.randn(200)
mu = torch.zeros(1, requires_grad=True)
log_sigma = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.Adam([mu, log_sigma], lr=0.05)

step = 0
while step < 50:
    nll = -torch.distributions.Normal(mu, log_sigma.exp()).log_prob(data).mean()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    step += 1
