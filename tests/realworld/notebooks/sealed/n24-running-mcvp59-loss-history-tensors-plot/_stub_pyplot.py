"""Stand-in for matplotlib.pyplot (not installed here): like matplotlib, plot converts what it
is given to an array with np.asarray."""
import numpy as np


def plot(*args, **kwargs):
    return [np.asarray(a, dtype=float) for a in args if not isinstance(a, str)]


def title(label, **kwargs):
    return label


def xlabel(label, **kwargs):
    return label


def ylabel(label, **kwargs):
    return label


def show():
    pass
