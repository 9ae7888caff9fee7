"""Cut-down BoTorch 0.8 (Jan 2023), next to the notebook: the input transforms involved in
pytorch/botorch#1635 (Warp, AffineInputTransform / Normalize with learned bounds, ChainedInputTransform,
as in botorch/models/transforms/input.py before PR #1642), a small exact GP standing in for
SingleTaskGP + gpytorch, and fit_gpytorch_mll as a plain Adam loop on the exact marginal log likelihood."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class InputTransform(nn.Module):
    transform_on_train = True

    def forward(self, X):
        return self.transform(X)


class Warp(InputTransform):
    """Kumaraswamy CDF warping with learned concentrations (a learned input transform)."""

    def __init__(self, indices):
        super().__init__()
        self.indices = indices
        self.concentration0 = nn.Parameter(torch.zeros(len(indices)))
        self.concentration1 = nn.Parameter(torch.zeros(len(indices)))

    def transform(self, X):
        a, b = F.softplus(self.concentration1) + 0.5, F.softplus(self.concentration0) + 0.5
        Xi = X[..., self.indices].clamp(1e-6, 1 - 1e-6)
        warped = 1 - (1 - Xi ** a) ** b
        X = X.clone()
        X[..., self.indices] = warped
        return X


class AffineInputTransform(InputTransform):
    def __init__(self, d, coefficient, offset, learn_coefficients=False):
        super().__init__()
        self.register_buffer("_coefficient", coefficient)
        self.register_buffer("_offset", offset)
        self.learn_coefficients = learn_coefficients

    @property
    def coefficient(self):
        return self._coefficient

    @property
    def offset(self):
        return self._offset

    def transform(self, X):
        if self.learn_coefficients and self.training:
            self._update_coefficients(X)
        return (X - self.offset) / self.coefficient


class Normalize(AffineInputTransform):
    """Normalize the inputs to the unit cube; with bounds=None the bounds are learned from the
    training inputs (learn_bounds) every time the transform runs in train mode."""

    def __init__(self, d, bounds=None, min_range=1e-8):
        learn_bounds = bounds is None
        coefficient = torch.ones(1, d) if learn_bounds else bounds[1:2] - bounds[0:1]
        offset = torch.zeros(1, d) if learn_bounds else bounds[0:1]
        super().__init__(d=d, coefficient=coefficient, offset=offset, learn_coefficients=learn_bounds)
        self.min_range = min_range

    def _update_coefficients(self, X):
        self._offset = torch.min(X, dim=-2, keepdim=True).values
        self._coefficient = (torch.max(X, dim=-2, keepdim=True).values - self.offset).clamp_min(self.min_range)


class ChainedInputTransform(InputTransform):
    def __init__(self, **transforms):
        super().__init__()
        self.transforms = nn.ModuleDict(transforms)

    def transform(self, X):
        for tf in self.transforms.values():
            X = tf(X)
        return X


class SingleTaskGP(nn.Module):
    """Exact GP with zero mean, a scaled RBF kernel and Gaussian noise."""

    def __init__(self, train_X, train_Y, input_transform=None):
        super().__init__()
        self.train_X, self.train_Y = train_X, train_Y.squeeze(-1)
        self.input_transform = input_transform
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))
        self.raw_outputscale = nn.Parameter(torch.zeros(1))
        self.raw_noise = nn.Parameter(torch.full((1,), -4.0))

    def kernel(self, A, B):
        ls, os = F.softplus(self.raw_lengthscale), F.softplus(self.raw_outputscale)
        return os * torch.exp(-0.5 * torch.cdist(A, B) ** 2 / ls ** 2)

    def _transform(self, X):
        return self.input_transform(X) if self.input_transform is not None else X

    def train_covariance(self):
        Xt = self._transform(self.train_X)
        n = Xt.shape[-2]
        return self.kernel(Xt, Xt) + (F.softplus(self.raw_noise) + 1e-4) * torch.eye(n), Xt

    def posterior_mean(self, X):
        K, Xt = self.train_covariance()
        alpha = torch.linalg.solve(K, self.train_Y)
        return self.kernel(self._transform(X), Xt) @ alpha


def fit_gpytorch_mll(model, steps=20, lr=0.1):
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        K, _ = model.train_covariance()
        y = model.train_Y
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y[:, None], L)[:, 0]
        mll = -0.5 * y @ alpha - torch.log(torch.diagonal(L)).sum() - 0.5 * len(y) * math.log(2 * math.pi)
        (-mll).backward()
        optimizer.step()
    model.eval()
    return model
