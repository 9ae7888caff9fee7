"""Stand-in for matplotlib.pyplot: subplots() gives an Axes whose plotting calls convert their
data with numpy as matplotlib does."""
import numpy as np


class _Axes:
    def plot(self, *args, **kwargs):
        for a in args:
            if not isinstance(a, str):
                np.asanyarray(a)
        return []

    def set_title(self, *args, **kwargs): pass
    def legend(self, *args, **kwargs): pass


def subplots(*args, **kwargs):
    return object(), _Axes()
