"""Stand-in for matplotlib.pyplot: plotting calls convert their data with numpy as matplotlib does."""
import numpy as np


def _conv(*args):
    for a in args:
        if not isinstance(a, str):
            np.asanyarray(a)


def title(*args, **kwargs): pass
def xlabel(*args, **kwargs): pass
def ylabel(*args, **kwargs): pass
def legend(*args, **kwargs): pass
def colorbar(*args, **kwargs): pass
def show(*args, **kwargs): pass
def figure(*args, **kwargs): pass


def scatter(x, y, **kwargs): _conv(x, y)
def plot(*args, **kwargs): _conv(*args)
def pcolormesh(*args, **kwargs): _conv(*args)
