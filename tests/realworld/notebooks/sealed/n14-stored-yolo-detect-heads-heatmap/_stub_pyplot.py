"""Stand-in for matplotlib.pyplot (not installed here): like matplotlib, it only converts
what it is given to arrays with np.asarray."""
import numpy as np


class _Axes:
    def imshow(self, X, **kwargs):
        return np.asarray(X)


class _Figure:
    def suptitle(self, t, **kwargs):
        return t


def subplots(nrows=1, ncols=1, **kwargs):
    axes = np.empty((nrows, ncols), dtype=object)
    for i in range(nrows):
        for j in range(ncols):
            axes[i, j] = _Axes()
    return _Figure(), axes.squeeze()[()] if axes.size == 1 else axes.squeeze()


def show():
    pass
