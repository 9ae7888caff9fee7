# source: https://github.com/rballester/tntorch/pull/19 ("Fixed errors on GPU. Removed annoying memory leak."; tntorch/autodiff.py optimize() as it was before commit 67f8679 "Fixed memory leak in loss history", with a minimal tensor-train class standing in for tn.Tensor and a small random target instead of the 100x100 picture)
# style: optim
# cause: graph_kept_alive
# line: 67
# expert: optimize() appends every iteration's total loss tensor to the losses history (used only for the convergence test and printing) and backpropagates it with retain_graph=True, so each entry keeps its whole tensor-train reconstruction graph with all saved intermediates alive; memory grows with every iteration until the machine runs out. The merged fix computes total_loss = sum(loss), calls total_loss.backward(retain_graph=True) and optimizer.step(), and stores losses.append(total_loss.detach()).
import time
from functools import reduce

import torch

torch.manual_seed(0)


class Tensor:
    """A tensor in the tensor-train format: a chain of 3D cores (stands in for tntorch.Tensor)."""

    def __init__(self, shape, ranks_tt, requires_grad=False):
        ranks = [1] + [ranks_tt] * (len(shape) - 1) + [1]
        self.cores = [torch.randn(ranks[n], shape[n], ranks[n + 1]).mul_(0.3).requires_grad_(requires_grad)
                      for n in range(len(shape))]
        self.Us = [None] * len(shape)

    def dim(self):
        return len(self.cores)

    def full(self):
        t = self.cores[0]
        for core in self.cores[1:]:
            t = torch.einsum('...i,ijk->...jk', t, core)
        return t[0, ..., 0]


def relative_error(gt, approx):
    return torch.norm(gt - approx.full()) / torch.norm(gt)


def optimize(tensors, loss_function, optimizer=torch.optim.Adam, tol=1e-4, max_iter=1e4, print_freq=500, verbose=True):
    """
    High-level wrapper for iterative learning.

    Default stopping criterion: either the absolute (or relative) loss improvement must fall below `tol`.
    In addition, the rate loss improvement must be slowing down.
    """

    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    parameters = []
    for t in tensors:
        if isinstance(t, Tensor):
            parameters.extend([c for c in t.cores if c.requires_grad])
            parameters.extend([U for U in t.Us if U is not None and U.requires_grad])
        elif t.requires_grad:
            parameters.append(t)
    if len(parameters) == 0:
        raise ValueError("There are no parameters to optimize. Did you forget a requires_grad=True somewhere?")

    optimizer = optimizer(parameters, lr=0.01)
    losses = []
    converged = False
    start = time.time()
    iter = 0
    while True:
        optimizer.zero_grad()
        loss = loss_function(*tensors)
        if not isinstance(loss, (tuple, list)):
            loss = [loss]
        losses.append(reduce(lambda x, y: x + y, loss))
        if len(losses) >= 2:
            delta_loss = (losses[-1] - losses[-2])
        else:
            delta_loss = float('-inf')
        if iter >= 2 and tol is not None and (losses[-1] <= tol or -delta_loss / losses[-1] <= tol) and losses[-2] - \
                losses[-1] < losses[-3] - losses[-2]:
            converged = True
            break
        if iter == max_iter:
            break
        if verbose and iter % print_freq == 0:
            print('iter: {: <{}} | loss: '.format(iter, len('{}'.format(max_iter))), end='')
            print(' + '.join(['{:10.6f}'.format(l.item()) for l in loss]), end='')
            if len(loss) > 1:
                print(' = {:10.4}'.format(losses[-1].item()), end='')
            print(' | total time: {:9.4f}'.format(time.time() - start))
        losses[-1].backward(retain_graph=True)
        optimizer.step()
        iter += 1
    if verbose:
        print('iter: {: <{}} | loss: '.format(iter, len('{}'.format(max_iter))), end='')
        print(' + '.join(['{:10.6f}'.format(l.item()) for l in loss]), end='')
        if len(loss) > 1:
            print(' = {:10.4}'.format(losses[-1].item()), end='')
        print(' | total time: {:9.4f}'.format(time.time() - start), end='')
        if converged:
            print(' <- converged (tol={})'.format(tol))
        else:
            print(' <- max_iter was reached: {}'.format(max_iter))


gt = torch.rand(6, 6, 6)
t = Tensor(gt.shape, ranks_tt=4, requires_grad=True)


def loss(t):
    return relative_error(gt, t) ** 2, 1e-4 * sum(torch.sum(c ** 2) for c in t.cores)


optimize(t, loss, max_iter=20, print_freq=5, tol=None)
