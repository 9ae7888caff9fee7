import torch

torch.manual_seed(0)

X = torch.randn(50, 5)
true_w = torch.randn(5, 1)
y = X @ true_w + 0.1 * torch.randn(50, 1)

w = torch.randn(5, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(20):
    pred = X @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
