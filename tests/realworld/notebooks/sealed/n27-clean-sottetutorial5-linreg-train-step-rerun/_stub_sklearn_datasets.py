"""Stand-in for sklearn.datasets.make_regression (a linear target with Gaussian noise)."""
import numpy as np


def make_regression(n_samples=100, n_features=1, noise=0.0, random_state=None):
    rng = np.random.RandomState(random_state)
    X = rng.randn(n_samples, n_features)
    coef = 100 * rng.rand(n_features)
    y = X @ coef + noise * rng.randn(n_samples)
    return X, y
