import torch

torch.manual_seed(0)
X = torch.randn(20, 2)
Y = X @ torch.tensor([[1.5], [-0.5]])
w = torch.zeros(2, 1, requires_grad=True)
lr = 0.1
for epoch in range(5):
    loss = ((X @ w - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
