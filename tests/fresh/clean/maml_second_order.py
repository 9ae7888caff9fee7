import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.zeros(3, 1, requires_grad=True)
meta_opt = torch.optim.Adam([w], lr=1e-2)
inner_lr = 0.1
for it in range(3):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for task in range(2):
        true_w = torch.randn(3, 1)
        xs, xq = torch.randn(5, 3), torch.randn(5, 3)
        support_loss = F.mse_loss(xs @ w, xs @ true_w)
        g, = torch.autograd.grad(support_loss, w, create_graph=True)
        w_task = w - inner_lr * g
        meta_loss = meta_loss + F.mse_loss(xq @ w_task, xq @ true_w)
    meta_loss.backward()
    meta_opt.step()
