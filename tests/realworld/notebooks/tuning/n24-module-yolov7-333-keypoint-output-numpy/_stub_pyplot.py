"""Stand-in for matplotlib.pyplot (not installed here)."""
import numpy as np


def figure(*args, **kwargs):
    return None


def axis(*args, **kwargs):
    return None


def imshow(X, **kwargs):
    return np.asarray(X)


def show():
    pass
