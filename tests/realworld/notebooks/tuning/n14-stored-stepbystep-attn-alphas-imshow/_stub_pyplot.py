"""Stand-in for matplotlib.pyplot (not installed here): like matplotlib, it only converts
what it is given to arrays with np.asarray."""
import numpy as np


class _Axes:
    def matshow(self, Z, **kwargs):
        return np.asarray(Z)


def subplots(nrows=1, ncols=1, **kwargs):
    return object(), _Axes()
