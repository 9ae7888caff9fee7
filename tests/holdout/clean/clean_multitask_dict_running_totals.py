import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 4)
        self.aux_head = nn.Linear(32, 2)

    def forward(self, x):
        feat = self.backbone(x)
        return {"cls": self.cls_head(feat), "aux": self.aux_head(feat)}


model = MultiTaskNet()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = [(torch.randn(8, 10), torch.randint(0, 4, (8,)), torch.randn(8, 2)) for _ in range(3)]
totals = {"cls": 0.0, "aux": 0.0}

for epoch in range(2):
    for x, y, y_aux in loader:
        out = model(x)
        losses = {"cls": F.cross_entropy(out["cls"], y), "aux": 0.3 * F.mse_loss(out["aux"], y_aux)}
        loss = torch.stack(list(losses.values())).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for k, v in losses.items():
            totals[k] += v.item()
