# cause: computed_before_loop
# line: 14
# why: The weight-normalised matrix W is derived from the leaf parameters v and g once before the loop, so every step after the first backpropagates through its freed graph.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
v = torch.randn(3, 5, requires_grad=True)
g = torch.ones(3, 1, requires_grad=True)
X = torch.randn(40, 5)
Y = torch.randn(40, 3)
opt = torch.optim.SGD([v, g], lr=0.1)

W = g * v / v.norm(dim=1, keepdim=True)
for step in range(5):
    xb, yb = X[step * 8:(step + 1) * 8], Y[step * 8:(step + 1) * 8]
    loss = F.mse_loss(xb @ W.t(), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
