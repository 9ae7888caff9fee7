# source: https://github.com/locuslab/convex_adversarial/issues/34
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 3 line 12
# expert: evaluate_robust() turns autograd off with torch.set_grad_enabled(False) before its test loop, and the PGD evaluation line the reporter uncommented (_pgd from attacks.py) runs inside that loop, so the attack's loss.backward() has no graph; the maintainer's answer is to re-enable gradients for the attack, e.g. wrap the _pgd call in torch.enable_grad().
# %%
import io
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable

from attacks import _pgd
torch.manual_seed(0)
# %%
# small interval-bound stand-in for convex_adversarial.robust_loss (same signature and outputs)
def robust_loss(net, epsilon, X, y, **kwargs):
    lo, hi = X - epsilon, X + epsilon
    for layer in net:
        if isinstance(layer, nn.Linear):
            mid, rad = (hi + lo) / 2, (hi - lo) / 2
            mid, rad = layer(mid), rad @ layer.weight.abs().t()
            lo, hi = mid - rad, mid + rad
        elif isinstance(layer, nn.ReLU):
            lo, hi = lo.clamp(min=0), hi.clamp(min=0)
        else:
            lo, hi = layer(lo), layer(hi)
    worst = torch.where(F.one_hot(y, hi.size(1)).bool(), lo, hi)
    robust_ce = nn.CrossEntropyLoss()(worst, y)
    robust_err = (worst.max(1)[1] != y).float().sum().item() / X.size(0)
    return robust_ce, robust_err


class AverageMeter(object):
    """Computes and stores the average and current value"""
    def __init__(self):
        self.val, self.avg, self.sum, self.count = 0, 0, 0, 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count
# %%
def train_robust(loader, model, opt, epsilon, epoch, log, verbose, **kwargs):
    losses = AverageMeter()
    robust_losses = AverageMeter()
    model.train()
    for i, (X, y) in enumerate(loader):
        with torch.no_grad():
            out = model(Variable(X))
            ce = nn.CrossEntropyLoss()(out, Variable(y))

        robust_ce, robust_err = robust_loss(model, epsilon, Variable(X), Variable(y), **kwargs)
        opt.zero_grad()
        robust_ce.backward()
        opt.step()

        losses.update(ce.item(), X.size(0))
        robust_losses.update(robust_ce.detach().item(), X.size(0))
        print(epoch, i, robust_ce.detach().item(), robust_err, ce.item(), file=log)
# %%
def evaluate_robust(loader, model, epsilon, epoch, log, verbose, **kwargs):
    losses = AverageMeter()
    errors = AverageMeter()
    robust_losses = AverageMeter()
    robust_errors = AverageMeter()
    pgd_errors = AverageMeter()

    model.eval()

    end = time.time()

    torch.set_grad_enabled(False)
    for i, (X, y) in enumerate(loader):
        robust_ce, robust_err = robust_loss(model, epsilon, X, y, **kwargs)

        out = model(Variable(X))
        ce = nn.CrossEntropyLoss()(out, Variable(y))
        err = (out.max(1)[1] != y).float().sum() / X.size(0)

        _, pgd_err = _pgd(model, Variable(X), Variable(y), epsilon)

        losses.update(ce.item(), X.size(0))
        errors.update(err, X.size(0))
        robust_losses.update(robust_ce.item(), X.size(0))
        robust_errors.update(robust_err, X.size(0))
        pgd_errors.update(pgd_err, X.size(0))
        print(epoch, i, robust_ce.item(), robust_err, ce.item(), err.item(), file=log)
    torch.set_grad_enabled(True)
    print(' * Robust error {rerror.avg:.3f}\tError {error.avg:.3f}\tPGD error {perr.avg:.3f}'.format(
        rerror=robust_errors, error=errors, perr=pgd_errors))
    return robust_errors.avg
# %%
# small MNIST-like MLP and random 1x8x8 images instead of the mnist.py loaders
model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
train_loader = [(torch.rand(16, 1, 8, 8), torch.randint(0, 10, (16,))) for _ in range(3)]
test_loader = [(torch.rand(16, 1, 8, 8), torch.randint(0, 10, (16,))) for _ in range(2)]
opt = optim.Adam(model.parameters(), lr=1e-3)
epsilon = 0.1
train_log, test_log = io.StringIO(), io.StringIO()
# %%
for t in range(2):
    train_robust(train_loader, model, opt, epsilon, t, train_log, verbose=False)
    err = evaluate_robust(test_loader, model, epsilon, t, test_log, verbose=False)
    print(t, err)
