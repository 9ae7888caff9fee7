import torch

torch.manual_seed(0)

# Kernel ridge regression with a learnable RBF length-scale.
X = torch.linspace(-3, 3, 30).unsqueeze(1)
y = torch.sin(2 * X) + 0.1 * torch.randn_like(X)
log_ls = torch.zeros((), requires_grad=True)
alpha = torch.zeros(30, 1, requires_grad=True)


def rbf(a, b, lengthscale):
    d2 = (a - b.t()).pow(2)
    return torch.exp(-0.5 * d2 / lengthscale ** 2)


opt = torch.optim.Adam([log_ls, alpha], lr=0.05)
for it in range(8):
    K = rbf(X, X, log_ls.exp())
    pred = K @ alpha
    loss = (pred - y).pow(2).mean() + 1e-3 * (alpha.t() @ K @ alpha).squeeze()
    opt.zero_grad()
    loss.backward()
    opt.step()
