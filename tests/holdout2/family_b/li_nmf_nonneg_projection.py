# cause: leaf_inplace
# line: 18
# why: The non-negativity projection clamps the leaf factor W in place outside torch.no_grad().
import torch

torch.manual_seed(0)

# Non-negative matrix factorisation V ~ W @ H by projected gradient descent.
V = torch.rand(20, 15)
W = torch.rand(20, 4, requires_grad=True)
H = torch.rand(4, 15, requires_grad=True)
opt = torch.optim.Adam([W, H], lr=0.05)
for it in range(10):
    opt.zero_grad()
    loss = (V - W @ H).pow(2).mean()
    loss.backward()
    opt.step()
    W.clamp_(min=0)
    H.clamp_(min=0)
