"""Cut-down stand-ins for the BoTorch/GPyTorch pieces of the report: SingleTaskGP (exact GP with an
RBF kernel and one independent GP per output column), ModelListGP, SumMarginalLogLikelihood and
fit_gpytorch_mll (here a plain Adam loop on the negative marginal log likelihood)."""
import math
import torch
from torch import nn
import torch.nn.functional as F


class SingleTaskGP(nn.Module):
    def __init__(self, train_X, train_Y):
        super().__init__()
        self.train_inputs = (train_X,)
        self.train_targets = train_Y.transpose(-1, -2)          # (m, n)
        m, d = train_Y.shape[-1], train_X.shape[-1]
        self.raw_lengthscale = nn.Parameter(torch.zeros(m, 1, d))
        self.raw_outputscale = nn.Parameter(torch.zeros(m))
        self.raw_noise = nn.Parameter(torch.full((m,), -2.0))
        self.constant = nn.Parameter(torch.zeros(m))
        self.likelihood = nn.Identity()

    def forward(self, X):
        ls = F.softplus(self.raw_lengthscale) + 1e-3
        Xs = X.unsqueeze(0) / ls                                 # (m, n, d)
        sq = torch.cdist(Xs, Xs).pow(2)
        covar = F.softplus(self.raw_outputscale)[:, None, None] * torch.exp(-0.5 * sq)
        mean = self.constant[:, None].expand(-1, X.shape[0])
        return mean, covar

    def marginal_log_likelihood(self):
        X, y = self.train_inputs[0], self.train_targets
        mean, covar = self(X)
        n = X.shape[0]
        K = covar + (F.softplus(self.raw_noise)[:, None, None] + 1e-4) * torch.eye(n, dtype=X.dtype)
        L = torch.linalg.cholesky(K)
        diff = (y - mean).unsqueeze(-1)
        alpha = torch.cholesky_solve(diff, L)
        mll = -0.5 * (diff * alpha).sum((-1, -2)) - L.diagonal(dim1=-2, dim2=-1).log().sum(-1) \
            - 0.5 * n * math.log(2 * math.pi)
        return (mll / n).sum()


class ModelListGP(nn.Module):
    def __init__(self, *gp_models):
        super().__init__()
        self.models = nn.ModuleList(gp_models)
        self.likelihood = nn.ModuleList([m.likelihood for m in gp_models])


class SumMarginalLogLikelihood(nn.Module):
    def __init__(self, likelihood, model):
        super().__init__()
        self.likelihood, self.model = likelihood, model

    def forward(self):
        return sum(m.marginal_log_likelihood() for m in self.model.models)


def fit_gpytorch_mll(mll, num_steps=20, lr=0.1):
    mll.train()
    optimizer = torch.optim.Adam(mll.parameters(), lr=lr)
    for _ in range(num_steps):
        optimizer.zero_grad()
        loss = -mll()
        loss.backward()
        optimizer.step()
    mll.eval()
    return mll
