"""A condensed stand-in for nflows.transforms.coupling (the piecewise coupling transforms):
the conditioner net's output is split into spline parameters, which are scaled down by
sqrt(hidden_features) before the spline. The spline here is a simple monotone
piecewise-linear CDF on [0, 1], standing in for nflows' rational-quadratic spline."""
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


def piecewise_linear_spline(inputs, unnormalized_widths, unnormalized_heights, min_bin_width=1e-3):
    num_bins = unnormalized_widths.shape[-1]
    widths = F.softmax(unnormalized_widths, dim=-1)
    widths = min_bin_width + (1 - min_bin_width * num_bins) * widths
    heights = F.softmax(unnormalized_heights, dim=-1)
    cumwidths = F.pad(torch.cumsum(widths, dim=-1), (1, 0))[..., :-1]
    cumheights = F.pad(torch.cumsum(heights, dim=-1), (1, 0))[..., :-1]
    bin_idx = (torch.searchsorted(torch.cumsum(widths, dim=-1).detach(), inputs[..., None].detach()).clamp(max=num_bins - 1))
    w = widths.gather(-1, bin_idx)[..., 0]
    h = heights.gather(-1, bin_idx)[..., 0]
    x0 = cumwidths.gather(-1, bin_idx)[..., 0]
    y0 = cumheights.gather(-1, bin_idx)[..., 0]
    outputs = y0 + (inputs - x0) * h / w
    logabsdet = torch.log(h) - torch.log(w)
    return outputs, logabsdet


class PiecewiseCouplingTransform(nn.Module):
    def __init__(self, mask, transform_net_create_fn, num_bins=10):
        super().__init__()
        mask = torch.as_tensor(mask)
        self.num_bins = num_bins
        self.register_buffer("identity_features", mask.le(0).nonzero().view(-1))
        self.register_buffer("transform_features", mask.gt(0).nonzero().view(-1))
        self.transform_net = transform_net_create_fn(
            len(self.identity_features), len(self.transform_features) * self._transform_dim_multiplier()
        )

    def _transform_dim_multiplier(self):
        return self.num_bins * 2

    def forward(self, inputs):
        identity_split = inputs[:, self.identity_features]
        transform_split = inputs[:, self.transform_features]
        transform_params = self.transform_net(identity_split)
        b, d = transform_split.shape
        transform_params = transform_params.reshape(b, d, self._transform_dim_multiplier())
        transform_split, logabsdet = self._piecewise_cdf(transform_split, transform_params)
        outputs = torch.empty_like(inputs)
        outputs[:, self.identity_features] = identity_split
        outputs[:, self.transform_features] = transform_split
        return outputs, logabsdet.sum(-1)

    def _piecewise_cdf(self, inputs, transform_params, inverse=False):
        unnormalized_widths = transform_params[..., : self.num_bins]
        unnormalized_heights = transform_params[..., self.num_bins : 2 * self.num_bins]

        if hasattr(self.transform_net, "hidden_features"):
            unnormalized_widths /= np.sqrt(self.transform_net.hidden_features)
            unnormalized_heights /= np.sqrt(self.transform_net.hidden_features)

        return piecewise_linear_spline(inputs, unnormalized_widths, unnormalized_heights)
