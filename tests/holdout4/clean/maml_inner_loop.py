import torch
import torch.nn.functional as F

torch.manual_seed(0)
# functional 1-hidden-layer net so that fast weights can be plugged in
params = {
    "w1": (torch.randn(1, 32) * 0.5).requires_grad_(),
    "b1": torch.zeros(32, requires_grad=True),
    "w2": (torch.randn(32, 1) * 0.1).requires_grad_(),
    "b2": torch.zeros(1, requires_grad=True),
}
meta_opt = torch.optim.Adam(params.values(), lr=1e-3)
inner_lr, inner_steps = 0.05, 2


def forward(p, x):
    return torch.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]


def sample_task():
    amp, phase = torch.rand(1) * 2 + 0.5, torch.rand(1) * 3
    xs, xq = torch.rand(10, 1) * 10 - 5, torch.rand(10, 1) * 10 - 5
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


meta_losses = []
for meta_it in range(5):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for _ in range(3):
        xs, ys, xq, yq = sample_task()
        fast = dict(params)
        for _ in range(inner_steps):
            inner_loss = F.mse_loss(forward(fast, xs), ys)
            grads = torch.autograd.grad(inner_loss, list(fast.values()), create_graph=True)
            fast = {k: v - inner_lr * g for (k, v), g in zip(fast.items(), grads)}
        meta_loss = meta_loss + F.mse_loss(forward(fast, xq), yq)
    (meta_loss / 3).backward()     # one backward per meta-batch
    meta_opt.step()
    meta_losses.append(meta_loss.item() / 3)
print([round(v, 3) for v in meta_losses])
