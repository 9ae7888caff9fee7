# cause: tensor_reused_across_iterations
# line: 20
# why: The module stores its graph-attached output in self.last and blends it into the next forward, so the next backward hits the previous step's freed graph.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SmoothPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.last = None

    def forward(self, x):
        y = torch.sigmoid(self.fc(x))
        if self.last is not None:
            y = 0.7 * y + 0.3 * self.last
        self.last = y
        return y


model = SmoothPredictor()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
bce = nn.BCELoss()
for step in range(4):
    x = torch.randn(2, 3)
    target = (x > 0).float()
    loss = bce(model(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
