"""Cut-down deepinv (Feb 2024), next to the notebook: deepinv/models/GSPnP.py as it was before
PR #167 (GSPnP.potential_grad switching grad mode with torch.set_grad_enabled) and GSDRUNet,
with a 2-layer conv net taking the noise level as an extra channel instead of DRUNet."""
import torch
import torch.nn as nn


class DRUNet(nn.Module):
    def __init__(self, in_channels=3, out_channels=3, nc=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_channels + 1, nc, 3, padding=1), nn.ELU(),
                                 nn.Conv2d(nc, out_channels, 3, padding=1))

    def forward(self, x, sigma):
        noise_level_map = torch.full_like(x[:, :1], float(sigma))
        return self.net(torch.cat((x, noise_level_map), 1))


class StudentGrad(nn.Module):
    def __init__(self, denoiser):
        super().__init__()
        self.model = denoiser

    def forward(self, x, sigma):
        return self.model(x, sigma)


class GSPnP(nn.Module):
    r"""
    Gradient Step module to use a denoiser architecture as a Gradient Step Denoiser.
    See https://arxiv.org/pdf/2110.03220.pdf.
    Code from https://github.com/samuro95/GSPnP.
    """

    def __init__(self, denoiser, alpha=1.0, train=False):
        super().__init__()
        self.student_grad = StudentGrad(denoiser)
        self.alpha = alpha
        self.train = train

    def potential_grad(self, x, sigma):
        torch.set_grad_enabled(True)
        x = x.float()
        x = x.requires_grad_()
        N = self.student_grad(x, sigma)
        JN = torch.autograd.grad(
            N, x, grad_outputs=x - N, create_graph=True, only_inputs=True
        )[0]
        if not self.train:
            torch.set_grad_enabled(False)
        Dg = x - N - JN
        return self.alpha * Dg

    def forward(self, x, sigma):
        Dg = self.potential_grad(x, sigma)
        x_hat = x - Dg
        return x_hat


def GSDRUNet(alpha=1.0, in_channels=3, out_channels=3, pretrained=None, train=False, device=torch.device("cpu")):
    denoiser = DRUNet(in_channels=in_channels, out_channels=out_channels)
    GSmodel = GSPnP(denoiser, alpha=alpha, train=train)
    return GSmodel


class _Models:
    GSDRUNet = staticmethod(GSDRUNet)
    DRUNet = DRUNet


models = _Models()
