"""Cut-down advertorch: LinfPGDAttack (attacks/iterative_projected_gradient.py, ord=inf only)
and ctx_noparamgrad_and_eval (context.py)."""
import torch
import torch.nn as nn


def clamp(input, min=None, max=None):
    return torch.clamp(input, min=min, max=max)


def perturb_iterative(xvar, yvar, predict, nb_iter, eps, eps_iter, loss_fn,
                      delta_init=None, minimize=False, clip_min=0.0, clip_max=1.0):
    delta = delta_init if delta_init is not None else torch.zeros_like(xvar)
    delta.requires_grad_()
    for ii in range(nb_iter):
        outputs = predict(xvar + delta)
        loss = loss_fn(outputs, yvar)
        if minimize:
            loss = -loss
        loss.backward()
        grad_sign = delta.grad.data.sign()
        delta.data = delta.data + eps_iter * grad_sign
        delta.data = torch.clamp(delta.data, -eps, eps)
        delta.data = clamp(xvar.data + delta.data, clip_min, clip_max) - xvar.data
        delta.grad.data.zero_()
    return clamp(xvar + delta, clip_min, clip_max)


class LinfPGDAttack(object):
    def __init__(self, predict, loss_fn=None, eps=0.3, nb_iter=40, eps_iter=0.01,
                 rand_init=True, clip_min=0., clip_max=1., targeted=False):
        self.predict = predict
        self.loss_fn = loss_fn if loss_fn is not None else nn.CrossEntropyLoss(reduction="sum")
        self.eps, self.nb_iter, self.eps_iter = eps, nb_iter, eps_iter
        self.rand_init, self.targeted = rand_init, targeted
        self.clip_min, self.clip_max = clip_min, clip_max

    def perturb(self, x, y=None):
        delta = nn.Parameter(torch.zeros_like(x))
        if self.rand_init:
            delta.data.uniform_(-self.eps, self.eps)
            delta.data = clamp(x + delta.data, min=self.clip_min, max=self.clip_max) - x
        rval = perturb_iterative(x, y, self.predict, nb_iter=self.nb_iter, eps=self.eps,
                                 eps_iter=self.eps_iter, loss_fn=self.loss_fn, minimize=self.targeted,
                                 clip_min=self.clip_min, clip_max=self.clip_max, delta_init=delta)
        return rval.data


class ctx_noparamgrad_and_eval(object):
    "Turn off the model parameters' requires_grad and switch to eval mode; restore both on exit."
    def __init__(self, module):
        self.module = module

    def __enter__(self):
        self.was_training = self.module.training
        self.prev_grad_state = [p.requires_grad for p in self.module.parameters()]
        self.module.eval()
        for p in self.module.parameters():
            p.requires_grad_(False)

    def __exit__(self, *args):
        for p, state in zip(self.module.parameters(), self.prev_grad_state):
            p.requires_grad_(state)
        self.module.train(self.was_training)
        return False
