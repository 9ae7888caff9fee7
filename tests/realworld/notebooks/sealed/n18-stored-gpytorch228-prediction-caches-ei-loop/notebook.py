# source: variant of https://github.com/cornellius-gp/gpytorch/pull/228
# scenario: stored_activations
# cause: computed_before_loop
# root: file gp_lite.py line 45
# expert: the first eval-mode prediction (the posterior check cell) computes the GP's mean and covariance caches with the graph of the model hyperparameters and keeps them on the model; the acquisition loop then backpropagates -EI(x) through those caches every iteration, so the second loss.backward() finds their graph freed (gpytorch#175). PR #228 detaches the mean and covariance caches computed at test time, so each backward only goes through the new k(x, X) terms.
# %%
import torch
from torch.distributions import Normal
from gp_lite import ExactGPModel
torch.manual_seed(0)
# %%
train_x = torch.linspace(0, 1, 10).unsqueeze(-1)
train_y = torch.sin(6 * train_x).squeeze(-1) + 0.1 * torch.randn(10)
model = ExactGPModel(train_x, train_y)

model.train()
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
for i in range(20):
    optimizer.zero_grad()
    loss = -model.marginal_log_likelihood()
    loss.backward()
    optimizer.step()
print(loss.item())
# %%
# posterior check on a grid
model.eval()
test_x = torch.linspace(0, 1, 5).unsqueeze(-1)
pred_mean, pred_var = model(test_x)
print(pred_mean.detach(), pred_var.detach())
# %%
def batch_expected_improvement(x, model, best_f):
    mean, var = model(x.unsqueeze(-1))
    sigma = var.sqrt()
    u = (mean - best_f) / sigma
    normal = Normal(torch.zeros_like(u), torch.ones_like(u))
    return (sigma * (u * normal.cdf(u) + normal.log_prob(u).exp())).sum()
# %%
x = torch.tensor([0.25], requires_grad=True)
optimizer = torch.optim.Adam([x], lr=0.1)
for i in range(5):
    optimizer.zero_grad()
    loss = -batch_expected_improvement(x, model, 0)
    print('Iter {}, loss = {}'.format(i, loss.item()))
    loss.backward()
    optimizer.step()
