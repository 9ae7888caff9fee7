import torch
import torch.nn.functional as F

torch.manual_seed(0)

w = torch.randn(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
meta_opt = torch.optim.Adam([w, b], lr=1e-2)
inner_lr, inner_steps = 0.1, 2


def sample_task():
    a = torch.rand(1) * 2 + 0.5
    xs, xq = torch.randn(10, 1), torch.randn(10, 1)
    return (xs, a * xs), (xq, a * xq)


for meta_step in range(3):
    meta_loss = 0.0
    for _ in range(4):
        (xs, ys), (xq, yq) = sample_task()
        fw, fb = w, b
        for _ in range(inner_steps):
            inner_loss = F.mse_loss(xs @ fw + fb, ys)
            gw, gb = torch.autograd.grad(inner_loss, (fw, fb), create_graph=True)
            fw, fb = fw - inner_lr * gw, fb - inner_lr * gb
        meta_loss = meta_loss + F.mse_loss(xq @ fw + fb, yq)
    meta_opt.zero_grad()
    (meta_loss / 4).backward()
    meta_opt.step()
