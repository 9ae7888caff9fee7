# source: variant of https://github.com/pytorch/pytorch/issues/90158 (the reporter's PINN-style net(x, t) minimal example, with the two copy-pasted training steps written as a loop)
# style: physics
# cause: computed_before_loop
# line: 32
# expert: The time collocation points t are built once before the loop as 1 + 3 * torch.rand(..., requires_grad=True), so t is a non-leaf tensor whose small graph (the mul/add) is freed by the first loss.backward(); the second step backpropagates into it again. As explained in the thread, t must be a leaf: create the random tensor without requires_grad and then call t.requires_grad_() on the shifted result.
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()

        self.stack = nn.Sequential(
            nn.Linear(2, 10),
            nn.Linear(10, 10),
            nn.Linear(10, 1)
        )

    def forward(self, x, t):
        X = torch.cat([t, x], axis=1)
        for layer in self.stack:
            X = layer(X)
        return X


net = Net()
x = torch.FloatTensor(20, 1).uniform_(-1, 1)
x.requires_grad_()
t = 1 + 3 * torch.rand(20, 1)
t.requires_grad_()

opt = torch.optim.Adam(net.parameters(), lr=0.01)

for epoch in range(3):
    loss = torch.mean(torch.square(net(x, t)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.5f}")
