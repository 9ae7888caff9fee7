"""Cut-down advertorch (advertorch/attacks/iterative_projected_gradient.py, utils.py):
LinfPGDAttack.perturb -> perturb_iterative, ord=inf only."""
import torch
import torch.nn as nn


def clamp(input, min=None, max=None):
    return torch.clamp(input, min=min, max=max)


def batch_multiply(float_or_vector, tensor):
    return float_or_vector * tensor


def batch_clamp(float_or_vector, tensor):
    return torch.clamp(tensor, -float_or_vector, float_or_vector)


def perturb_iterative(xvar, yvar, predict, nb_iter, eps, eps_iter, loss_fn,
                      delta_init=None, minimize=False, clip_min=0.0, clip_max=1.0):
    if delta_init is not None:
        delta = delta_init
    else:
        delta = torch.zeros_like(xvar)

    delta.requires_grad_()
    for ii in range(nb_iter):
        outputs = predict(xvar + delta)
        loss = loss_fn(outputs, yvar)
        if minimize:
            loss = -loss

        loss.backward()
        grad_sign = delta.grad.data.sign()
        delta.data = delta.data + batch_multiply(eps_iter, grad_sign)
        delta.data = batch_clamp(eps, delta.data)
        delta.data = clamp(xvar.data + delta.data, clip_min, clip_max) - xvar.data
        delta.grad.data.zero_()

    x_adv = clamp(xvar + delta, clip_min, clip_max)
    return x_adv


class LinfPGDAttack(object):
    def __init__(self, predict, loss_fn=None, eps=0.3, nb_iter=40, eps_iter=0.01,
                 rand_init=True, clip_min=0., clip_max=1., targeted=False):
        self.predict = predict
        self.loss_fn = loss_fn if loss_fn is not None else nn.CrossEntropyLoss(reduction="sum")
        self.eps, self.nb_iter, self.eps_iter = eps, nb_iter, eps_iter
        self.rand_init, self.targeted = rand_init, targeted
        self.clip_min, self.clip_max = clip_min, clip_max

    def perturb(self, x, y=None):
        delta = torch.zeros_like(x)
        delta = nn.Parameter(delta)
        if self.rand_init:
            delta.data.uniform_(-self.eps, self.eps)
            delta.data = clamp(x + delta.data, min=self.clip_min, max=self.clip_max) - x

        rval = perturb_iterative(
            x, y, self.predict, nb_iter=self.nb_iter,
            eps=self.eps, eps_iter=self.eps_iter,
            loss_fn=self.loss_fn, minimize=self.targeted,
            clip_min=self.clip_min, clip_max=self.clip_max, delta_init=delta)
        return rval.data
