"""Minimal stand-in for matplotlib.pyplot: plot/imshow convert their data with numpy as matplotlib does."""
import numpy as np

_lines = []


def figure(*args, **kwargs):
    _lines.clear()


def subplot(*args, **kwargs):
    pass


def plot(*args, **kwargs):
    for a in args:
        if not isinstance(a, str):
            _lines.append(np.asanyarray(a))


def imshow(a, *args, **kwargs):
    np.asanyarray(a)


def title(*args, **kwargs):
    pass


def xlabel(*args, **kwargs):
    pass


def ylabel(*args, **kwargs):
    pass


def show():
    print(f'{len(_lines)} line(s) of length', [len(line) for line in _lines])
