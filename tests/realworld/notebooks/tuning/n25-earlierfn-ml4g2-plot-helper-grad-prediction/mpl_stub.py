"""Minimal stand-in for matplotlib.pyplot: plot() converts its data with numpy as matplotlib does."""
import numpy as np

_lines = []


def figure(*args, **kwargs):
    _lines.clear()


def plot(*args, **kwargs):
    for a in args:
        if not isinstance(a, str):
            _lines.append(np.asanyarray(a))


def xlabel(*args, **kwargs):
    pass


def ylabel(*args, **kwargs):
    pass


def legend(*args, **kwargs):
    pass


def show():
    print(f'{len(_lines)} line(s) of length', [len(line) for line in _lines])
    _lines.clear()
