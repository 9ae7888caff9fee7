# source: https://github.com/IceLab-X/MiniGP/issues/13
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 0 line 9
# expert: the kernel stores torch.exp(nn.Parameter(...)) computed once in __init__, so the length scale is a non-leaf tensor whose graph is freed by the first backward (and the raw parameter is never registered); store the log length scale as the nn.Parameter and take exp inside forward
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
JITTER = 1e-3

class SE_kernel(nn.Module):
    def __init__(self, length_scale=1.0):
        super().__init__()
        self.length_scale = torch.exp(nn.Parameter(torch.log(torch.tensor(length_scale))))

    def forward(self, X, X2):
        X = X / self.length_scale
        X2 = X2 / self.length_scale
        X_norm2 = torch.sum(X * X, dim=1).view(-1, 1)
        X2_norm2 = torch.sum(X2 * X2, dim=1).view(-1, 1)
        K = -2.0 * X @ X2.t() + X_norm2 + X2_norm2.t()
        return torch.exp(-K)
# %%
class gp(nn.Module):
    def __init__(self, length_scale=1.0, noise_variance=0.1):
        super().__init__()
        self.log_noise_variance = nn.Parameter(torch.log(torch.tensor(noise_variance)))
        self.kernel = SE_kernel(length_scale)

    def negative_log_likelihood(self, X, y):
        K = self.kernel(X, X) + torch.eye(X.size(0)) * (torch.exp(self.log_noise_variance) + JITTER)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y, L)
        return 0.5 * (y.t() @ alpha).sum() + torch.log(torch.diagonal(L)).sum()
# %%
X = torch.linspace(0, 5, 30).view(-1, 1)
y = torch.sin(X) + 0.1 * torch.randn_like(X)
model = gp(length_scale=1.0, noise_variance=0.1)
# %%
def train_gp(model, X, y, lr=0.1, epochs=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for i in range(epochs):
        optimizer.zero_grad()
        loss = model.negative_log_likelihood(X, y)
        loss.backward()
        optimizer.step()
        print('Epoch: {}, Loss: {}'.format(i, loss.item()))
# %%
train_gp(model, X, y, lr=0.1, epochs=5)
