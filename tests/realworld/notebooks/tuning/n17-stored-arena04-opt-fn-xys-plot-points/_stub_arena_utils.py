"""Stand-in for ARENA's part4_optimization/utils.py (plot_fn / plot_fn_with_points), with a minimal
plotly-like figure: like plotly's validators it converts every array it is given with numpy."""
import numpy as np
import torch as t


class _Figure:
    def __init__(self):
        self.traces = []

    def add_trace(self, **data):
        # plotly copies each data array into a read-only numpy array
        self.traces.append({k: np.asarray(v) for k, v in data.items()})

    def show(self):
        print(f"figure with {len(self.traces)} traces")


def plot_fn(fn, x_range=[-6, 6], y_range=[-10, 6], n_points=100, return_fig=False, log_scale=False):
    x = t.linspace(*x_range, n_points)
    xx = x.repeat(n_points, 1)
    y = t.linspace(*y_range, n_points)
    yy = y[:, None].repeat(1, n_points)
    z = fn(xx, yy)
    fig = _Figure()
    fig.add_trace(x=x, y=y, z=z)                                   # go.Surface
    fig.add_trace(x=x, y=y, z=z if not log_scale else t.log(z))   # go.Heatmap
    if return_fig:
        return fig
    fig.show()


def plot_fn_with_points(fn, points, x_range=[-2, 2], y_range=[-10, 5], n_points=100):
    x_min = min(*[xys.T[0].min().item() - 1.0 for (xys, *args) in points], x_range[0])
    x_max = max(*[xys.T[0].max().item() + 1.0 for (xys, *args) in points], x_range[1])
    y_min = min(*[xys.T[1].min().item() - 1.0 for (xys, *args) in points], y_range[0])
    y_max = max(*[xys.T[1].max().item() + 1.0 for (xys, *args) in points], y_range[1])
    fig = plot_fn(fn, [x_min, x_max], [y_min, y_max], n_points, return_fig=True)
    for (xys, name, params) in points:
        x, y = xys.T
        z = fn(x, y)
        fig.add_trace(x=x, y=y, z=z)   # go.Scatter3d
        fig.add_trace(x=x, y=y)        # go.Scatter
    fig.show()
