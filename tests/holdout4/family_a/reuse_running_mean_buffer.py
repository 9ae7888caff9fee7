# cause: tensor_reused_across_iterations
# line: 22
# why: The running_mean buffer is updated from the graph-attached batch activations, so it chains every previous batch's graph.
import torch
import torch.nn as nn
import torch.nn.functional as F



class CenteredLinear(nn.Module):
    """Linear layer whose output is centred with a running mean of its activations."""

    def __init__(self, d_in, d_out, momentum=0.9):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(d_out))

    def forward(self, x):
        h = self.lin(x)
        if self.training:
            self.running_mean = self.momentum * self.running_mean + (1 - self.momentum) * h.mean(0)
        return torch.relu(h - self.running_mean)


torch.manual_seed(0)
model = nn.Sequential(CenteredLinear(10, 32), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
X = torch.randn(80, 10)
Y = X[:, :1] * 2.0
for epoch in range(2):
    for i in range(0, 80, 16):
        loss = F.mse_loss(model(X[i:i + 16]), Y[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, loss.item())
