# source: https://github.com/bayesiains/nflows/issues/10
# style: vae
# cause: graph_kept_alive
# line: 56
# expert: `BatchNorm.forward` updates its `running_mean`/`running_var` buffers in place with the graph-carrying batch `mean`/`var`, so each buffer chains every training step's forward graph and RAM grows without bound although no error is raised; the merged fix (PR #11) adds `mean.detach()`/`var.detach()` to the running-statistics update.
import numpy as np
import torch
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(0)


class Transform(nn.Module):
    def forward(self, inputs, context=None):
        raise NotImplementedError


class CompositeTransform(Transform):
    def __init__(self, transforms):
        super().__init__()
        self._transforms = nn.ModuleList(transforms)

    def forward(self, inputs, context=None):
        total_logabsdet = inputs.new_zeros(inputs.shape[0])
        outputs = inputs
        for transform in self._transforms:
            outputs, logabsdet = transform(outputs, context)
            total_logabsdet = total_logabsdet + logabsdet
        return outputs, total_logabsdet


class BatchNorm(Transform):
    """Transform that performs batch normalization."""

    def __init__(self, features, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()
        self.momentum = momentum
        self.eps = eps
        constant = np.log(np.exp(1 - eps) - 1)
        self.unconstrained_weight = nn.Parameter(constant * torch.ones(features))
        self.bias = nn.Parameter(torch.zeros(features))
        self.register_buffer("running_mean", torch.zeros(features))
        self.register_buffer("running_var", torch.zeros(features))

    @property
    def weight(self):
        return F.softplus(self.unconstrained_weight) + self.eps

    def forward(self, inputs, context=None):
        if inputs.dim() != 2:
            raise ValueError("Expected 2-dim inputs, got inputs of shape: {}".format(inputs.shape))

        if self.training:
            mean, var = inputs.mean(0), inputs.var(0)
            self.running_mean.mul_(1 - self.momentum).add_(mean.detach() * self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(var.detach() * self.momentum)
        else:
            mean, var = self.running_mean, self.running_var

        outputs = self.weight * ((inputs - mean) / torch.sqrt((var + self.eps))) + self.bias
        logabsdet_ = torch.log(self.weight) - 0.5 * torch.log(var + self.eps)
        logabsdet = torch.sum(logabsdet_) * torch.ones(inputs.shape[0])
        return outputs, logabsdet


class AffineCouplingTransform(Transform):
    def __init__(self, mask, hidden_features):
        super().__init__()
        self.register_buffer("mask", mask)
        n = int(mask.numel())
        self.net = nn.Sequential(nn.Linear(n, hidden_features), nn.ReLU(), nn.Linear(hidden_features, 2 * n))

    def forward(self, inputs, context=None):
        identity = inputs * self.mask
        shift, unconstrained_scale = self.net(identity).chunk(2, dim=-1)
        scale = torch.sigmoid(unconstrained_scale + 2) + 1e-3
        outputs = identity + (1 - self.mask) * (inputs * scale + shift)
        logabsdet = torch.sum((1 - self.mask) * torch.log(scale), dim=-1)
        return outputs, logabsdet


class SimpleRealNVP(nn.Module):
    def __init__(self, features, hidden_features, num_layers, batch_norm_between_layers=True):
        super().__init__()
        layers = []
        mask = torch.ones(features)
        mask[::2] = 0
        for _ in range(num_layers):
            layers.append(AffineCouplingTransform(mask, hidden_features))
            mask = 1 - mask
            if batch_norm_between_layers:
                layers.append(BatchNorm(features=features))
        self._transform = CompositeTransform(layers)

    def log_prob(self, inputs):
        noise, logabsdet = self._transform(inputs)
        log_base = -0.5 * (noise ** 2).sum(-1) - 0.5 * noise.shape[1] * np.log(2 * np.pi)
        return log_base + logabsdet


flow = SimpleRealNVP(2, 32, 4, batch_norm_between_layers=True)
optimizer = optim.Adam(flow.parameters())

num_iter = 20
for i in range(num_iter):
    x = torch.randn(256, 2) * torch.tensor([1.0, 0.3]) + torch.tensor([0.5, -0.2])  # stand-in for make_moons
    optimizer.zero_grad()
    loss = -flow.log_prob(inputs=x).mean()
    loss.backward()
    optimizer.step()
    if i % 5 == 0:
        print("iter", i, "loss", loss.item())
