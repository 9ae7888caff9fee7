"""Stand-in for matplotlib.pyplot: draws nothing, but converts what it is given with numpy
the way matplotlib does when it renders (np.asarray on images, coordinates and sizes)."""
import numpy as np


class Rectangle:
    def __init__(self, xy, width, height, fill=True, color=None, linewidth=None):
        self.xy = np.asarray(xy, dtype=float)
        self.width = np.asarray(width, dtype=float)
        self.height = np.asarray(height, dtype=float)


class Axes:
    def __init__(self):
        self.artists = []

    def imshow(self, X, **kwargs):
        self.artists.append(np.asarray(X))

    def add_patch(self, patch):
        self.artists.append(patch)

    def text(self, x, y, s, **kwargs):
        self.artists.append((np.asarray(x, dtype=float), np.asarray(y, dtype=float), s))

    def axis(self, *args):
        pass

    def set_title(self, title):
        self.title = title


class Figure:
    def tight_layout(self):
        pass


_current = [Axes()]


def figure(figsize=None):
    _current[0] = Axes()
    return Figure()


def gca():
    return _current[0]


def imshow(X, **kwargs):
    gca().imshow(X, **kwargs)


def subplots(ncols=1, nrows=1, figsize=None):
    axs = np.empty((nrows, ncols), dtype=object)
    for i in range(nrows):
        for j in range(ncols):
            axs[i, j] = Axes()
    return Figure(), axs


def axis(*args):
    pass


def show():
    pass
