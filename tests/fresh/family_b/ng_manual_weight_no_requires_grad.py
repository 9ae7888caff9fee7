# cause: no_grad_fn
# line: 11
# why: The hand-written regression weight is created without requires_grad=True, so the loss has no grad_fn.
import torch

torch.manual_seed(0)
X = torch.cat([torch.randn(30, 3), torch.ones(30, 1)], dim=1)
true_w = torch.tensor([[2.0], [-1.0], [0.5], [0.3]])
Y = X @ true_w + 0.01 * torch.randn(30, 1)

w = torch.randn(4, 1) * 0.1
lr = 0.1
for epoch in range(5):
    pred = X @ w
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        w.grad.zero_()
    print(epoch, loss.item())
