# cause: double_backward
# line: 37
# why: torch.autograd.grad(loss, x) already freed the graph for the saliency map, so the later loss.backward() for the optimizer walks the same freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, n_classes)

    def forward(self, x):
        h = F.relu(self.conv(x))
        return self.fc(h.flatten(1))


model = SmallCNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
saliency_log = []

for step in range(5):
    x = torch.randn(8, 1, 8, 8, requires_grad=True)
    y = torch.randint(0, 3, (8,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)

    # input-gradient saliency for the dashboard
    (x_grad,) = torch.autograd.grad(loss, x)
    saliency_log.append(x_grad.abs().mean().item())

    opt.zero_grad()
    loss.backward()
    opt.step()

print("saliency", saliency_log)
