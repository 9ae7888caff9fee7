import torch
import torch.nn.functional as F

torch.manual_seed(0)
v = torch.randn(3, 5, requires_grad=True)
g = torch.ones(3, 1, requires_grad=True)
X = torch.randn(40, 5)
Y = torch.randn(40, 3)
opt = torch.optim.SGD([v, g], lr=0.1)

for step in range(5):
    W = g * v / v.norm(dim=1, keepdim=True)
    xb, yb = X[step * 8:(step + 1) * 8], Y[step * 8:(step + 1) * 8]
    loss = F.mse_loss(xb @ W.t(), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
