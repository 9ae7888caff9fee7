import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def init_params():
    return [
        (torch.randn(1, 32) * 0.5).requires_grad_(), torch.zeros(32, requires_grad=True),
        (torch.randn(32, 1) * 0.2).requires_grad_(), torch.zeros(1, requires_grad=True),
    ]


def forward(params, x):
    w1, b1, w2, b2 = params
    return torch.relu(x @ w1 + b1) @ w2 + b2


def sample_task():
    amp, phase = torch.rand(1) * 4 + 0.1, torch.rand(1) * math.pi
    def draw(n):
        x = torch.rand(n, 1) * 10 - 5
        return x, amp * torch.sin(x + phase)
    return draw


params = init_params()
meta_opt = torch.optim.Adam(params, lr=1e-3)
inner_lr = 0.01

for meta_step in range(3):
    meta_loss = 0.0
    for _ in range(4):
        draw = sample_task()
        xs, ys = draw(10)
        xq, yq = draw(10)
        fast = params
        for _ in range(2):
            inner_loss = F.mse_loss(forward(fast, xs), ys)
            grads = torch.autograd.grad(inner_loss, fast, create_graph=True)
            fast = [p - inner_lr * g for p, g in zip(fast, grads)]
        meta_loss = meta_loss + F.mse_loss(forward(fast, xq), yq)
    meta_opt.zero_grad()
    (meta_loss / 4).backward()
    meta_opt.step()
    print(meta_step, meta_loss.item() / 4)
