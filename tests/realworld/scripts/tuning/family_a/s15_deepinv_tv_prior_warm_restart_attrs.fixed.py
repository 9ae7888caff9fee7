# source: https://github.com/deepinv/deepinv/issues/194 (fixed by PR https://github.com/deepinv/deepinv/pull/196, commit 6a3af33; TVDenoiser of deepinv/models/tv.py and TVPrior of deepinv/optim/prior.py as they were before that commit, without the Prior base class; the reporter's gist is not public, so the training side is a small unrolled proximal-gradient deblurring net with a learnable TV strength and step size, a fixed 3x3 blur and random 8x8 images)
# style: optim
# cause: tensor_reused_across_iterations
# line: 88
# expert: TVDenoiser keeps its primal/dual iterates in self.x2 / self.u2 for warm restarts and overwrites them with graph-attached tensors inside its loop, so the next training iteration starts the prox from tensors that belong to the previous iteration's (already freed) graph and loss.backward() fails. The fix (PR #196) iterates on local x2/u2 cloned from the stored state and stores only x2.detach() / u2.detach() back on the module.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TVDenoiser(nn.Module):
    r"""
    Proximal operator of the isotropic Total Variation operator (over-relaxed Chambolle-Pock).

    This algorithm is implemented with warm restart, i.e. the primary and dual variables are kept in memory
    between calls to the forward method. This speeds up the computation when using this class in an iterative algorithm.
    """

    def __init__(
        self,
        verbose=False,
        n_it_max=1000,
        crit=1e-5,
        x2=None,
        u2=None,
    ):
        super(TVDenoiser, self).__init__()

        self.verbose = verbose
        self.n_it_max = n_it_max
        self.crit = crit
        self.restart = True

        self.tau = 0.01  # > 0

        self.rho = 1.99  # in 1,2
        self.sigma = 1 / self.tau / 8

        self.x2 = x2
        self.u2 = u2

        self.has_converged = False

    def prox_tau_fx(self, x, y):
        return (x + self.tau * y) / (1 + self.tau)

    def prox_sigma_g_conj(self, u, lambda2):
        return u / (
            torch.maximum(
                torch.sqrt(torch.sum(u**2, axis=-1)) / lambda2,
                torch.tensor([1], device=u.device).type(u.dtype),
            ).unsqueeze(-1)
        )

    def forward(self, y, ths=None):
        r"""
        Computes the proximity operator of the TV norm.

        :param torch.Tensor y: Noisy image.
        :param float, torch.Tensor ths: Regularization parameter :math:`\gamma`.
        :return: Denoised image.
        """
        restart = (
            True
            if (
                self.restart
                or self.x2 is None
                or self.u2 is None
                or self.x2.shape != y.shape
            )
            else False
        )

        if restart:
            x2 = y.clone()
            u2 = torch.zeros((*y.shape, 2), device=y.device).type(y.dtype)
            self.restart = False
        else:
            x2 = self.x2.clone()
            u2 = self.u2.clone()

        if ths is not None:
            lambd = ths

        for _ in range(self.n_it_max):
            x_prev = x2

            x = self.prox_tau_fx(x2 - self.tau * self.nabla_adjoint(u2), y)
            u = self.prox_sigma_g_conj(u2 + self.sigma * self.nabla(2 * x - x2), lambd)
            x2 = x2 + self.rho * (x - x2)
            u2 = u2 + self.rho * (u - u2)

            rel_err = torch.linalg.norm(
                x_prev.flatten() - x2.flatten()
            ) / torch.linalg.norm(x2.flatten() + 1e-12)

            if _ > 1 and rel_err < self.crit:
                if self.verbose:
                    print("TV prox reached convergence")
                break

        self.x2 = x2.detach()
        self.u2 = u2.detach()

        return x2

    @staticmethod
    def nabla(x):
        r"""
        Applies the finite differences operator associated with tensors of the same shape as x.
        """
        b, c, h, w = x.shape
        u = torch.zeros((b, c, h, w, 2), device=x.device).type(x.dtype)
        u[:, :, :-1, :, 0] = u[:, :, :-1, :, 0] - x[:, :, :-1]
        u[:, :, :-1, :, 0] = u[:, :, :-1, :, 0] + x[:, :, 1:]
        u[:, :, :, :-1, 1] = u[:, :, :, :-1, 1] - x[..., :-1]
        u[:, :, :, :-1, 1] = u[:, :, :, :-1, 1] + x[..., 1:]
        return u

    @staticmethod
    def nabla_adjoint(x):
        r"""
        Applies the adjoint of the finite difference operator.
        """
        b, c, h, w = x.shape[:-1]
        u = torch.zeros((b, c, h, w), device=x.device).type(x.dtype)
        u[:, :, :-1] = u[:, :, :-1] - x[:, :, :-1, :, 0]
        u[:, :, 1:] = u[:, :, 1:] + x[:, :, :-1, :, 0]
        u[..., :-1] = u[..., :-1] - x[..., :-1, 1]
        u[..., 1:] = u[..., 1:] + x[..., :-1, 1]
        return u


class TVPrior(nn.Module):
    r"""
    Total variation (TV) prior :math:`\reg{x} = \| D x \|_{1,2}`.
    """

    def __init__(self, def_crit=1e-8, n_it_max=1000):
        super().__init__()
        self.explicit_prior = True
        self.TVModel = TVDenoiser(crit=def_crit, n_it_max=n_it_max)

    def g(self, x, *args, **kwargs):
        return torch.sum(torch.sqrt(torch.sum(self.nabla(x) ** 2, axis=-1)))

    def prox(self, x, *args, gamma=1.0, **kwargs):
        return self.TVModel(x, ths=gamma)

    def nabla(self, x):
        return self.TVModel.nabla(x)

    def nabla_adjoint(self, x):
        return self.TVModel.nabla_adjoint(x)


class Blur(nn.Module):
    """Fixed 3x3 blur as the forward operator A (and its adjoint)."""

    def __init__(self):
        super().__init__()
        k = torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]])
        self.register_buffer("filter", (k / k.sum()).view(1, 1, 3, 3))

    def A(self, x):
        return F.conv2d(x, self.filter, padding=1)

    def A_adjoint(self, y):
        return F.conv_transpose2d(y, self.filter, padding=1)

    def forward(self, x, sigma=0.05):
        return self.A(x) + sigma * torch.randn_like(x)


class UnrolledTV(nn.Module):
    """Unrolled proximal gradient descent with a learnable TV strength and step size."""

    def __init__(self, n_iter=3):
        super().__init__()
        self.n_iter = n_iter
        self.prior = TVPrior(n_it_max=20)
        self.log_gamma = nn.Parameter(torch.tensor(-3.0))
        self.stepsize = nn.Parameter(torch.tensor(0.8))

    def forward(self, y, physics):
        x = physics.A_adjoint(y)
        for _ in range(self.n_iter):
            z = x - self.stepsize * physics.A_adjoint(physics.A(x) - y)
            x = self.prior.prox(z, gamma=self.log_gamma.exp())
        return x


physics = Blur()
model = UnrolledTV(n_iter=3)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for it in range(3):
    x_gt = torch.rand(2, 1, 8, 8)
    y = physics(x_gt)

    x_hat = model(y, physics)
    loss = F.mse_loss(x_hat, x_gt)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}  gamma {model.log_gamma.exp().item():.4f}")
