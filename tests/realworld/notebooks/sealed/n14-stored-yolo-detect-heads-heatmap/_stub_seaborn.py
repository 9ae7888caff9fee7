"""Stand-in for seaborn (not installed here): heatmap converts its data with np.asarray."""
import numpy as np


def heatmap(data, **kwargs):
    return np.asarray(data)
