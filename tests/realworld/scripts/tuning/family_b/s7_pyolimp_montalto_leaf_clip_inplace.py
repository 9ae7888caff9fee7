# source: https://github.com/pyolimp/pyolimp/commit/0e1d3b5848e80798f35fd76e5e8d45fd363b3c42
# style: optim
# cause: leaf_inplace
# line: 82
# expert: `precomp` is the leaf image being optimised (`requires_grad_(True)`), so returning `precomp.clip_(0, 1)` clamps a grad-requiring leaf in place and raises; the maintainers' fix ("remove in place clipping because of grad") returns the out-of-place `precomp.clip(0, 1)`.
from typing import Callable, NamedTuple

import torch
import torch.nn.functional as F
from torch import Tensor

torch.manual_seed(0)


def fft_conv(image: Tensor, psf: Tensor) -> Tensor:
    return torch.fft.irfft2(torch.fft.rfft2(image) * torch.fft.rfft2(psf), s=image.shape[-2:])


class MontaltoParameters(NamedTuple):
    lr: float = 1e-2
    theta: float = 1e-6
    tau: float = 2e-5
    Lambda: float = 65.0
    c_high: float = 1.0
    c_low: float = 1 - c_high
    gap: float = 0.01
    loss_func: Callable[[Tensor, Tensor], Tensor] | None = None
    progress: Callable[[float], None] | None = None
    debug: None | dict = None


def _tv_func(image: Tensor) -> Tensor:
    im_bg = F.pad(input=image, pad=(1, 1, 1, 1))
    x1 = im_bg[..., 1:-1, :-2]
    y1 = im_bg[..., :-2, 1:-1]
    return torch.abs(image - x1) + torch.abs(image - y1)


def montalto(image: Tensor, psf: Tensor, parameters: MontaltoParameters = MontaltoParameters()) -> Tensor:
    lr = parameters.lr
    theta, tau, Lambda = parameters.theta, parameters.tau, parameters.Lambda
    c_high, c_low = parameters.c_high, parameters.c_low

    t = image * (c_high - c_low) + c_low

    prev_loss = torch.tensor(float("inf"))
    precomp = t.clone().detach().requires_grad_(True)
    optimizer = torch.optim.Adam([precomp], lr=lr)
    loss_step = []
    if parameters.debug is not None:
        parameters.debug["loss_step"] = loss_step

    for i in range(50):
        if parameters.progress is not None:
            parameters.progress(i / 50)
        optimizer.zero_grad()

        if parameters.loss_func is None:
            e = fft_conv(precomp, psf) - t
            func_l1 = torch.sum(_tv_func(precomp))
            func_l2 = torch.linalg.norm(e.flatten())
            func_borders = torch.sum(torch.exp(-Lambda * precomp) + torch.exp(-Lambda * (1 - precomp)))
            loss = func_l2 + (theta * func_l1) + (tau * func_borders)
        else:
            precomp_clip = fft_conv(precomp.clip(0, 1), psf)
            loss = parameters.loss_func(precomp_clip, t)

        loss_step.append(loss.item())
        loss.backward()
        optimizer.step()

        if parameters.debug is not None:
            parameters.debug["precomp"] = precomp

        if torch.abs(prev_loss - loss).item() < parameters.gap:
            break

        prev_loss = loss
    if parameters.progress is not None:
        parameters.progress(1.0)

    return precomp.clip_(0, 1)


image = torch.rand(1, 1, 16, 16)
psf = torch.zeros(1, 1, 16, 16)
psf[..., :3, :3] = 1.0 / 9
out = montalto(image, psf)
print(out.shape, out.min().item(), out.max().item())
