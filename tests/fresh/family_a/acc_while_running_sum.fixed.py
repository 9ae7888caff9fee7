import torch

torch.manual_seed(0)
X = torch.randn(20, 3)
true_w = torch.tensor([1.0, -2.0, 0.5])
Y = X @ true_w
w = torch.zeros(3, requires_grad=True)

running = 0.0
step = 0
while step < 5:
    xb = X[step * 4:(step + 1) * 4]
    yb = Y[step * 4:(step + 1) * 4]
    pred = torch.tanh(xb @ w) * 3
    l = ((pred - yb) ** 2).mean()
    running = running + l.item()
    l.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    step += 1
print(w, running / step)
