import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N = 32
X = torch.randn(N, 5)
Y = torch.randint(0, 3, (N,))
labeled = torch.arange(N) < 8

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
ema_preds = torch.full((N, 3), 1.0 / 3)
alpha = 0.6

for epoch in range(4):
    logits = model(X)
    probs = logits.softmax(dim=1)
    sup_loss = F.cross_entropy(logits[labeled], Y[labeled])
    cons_loss = F.mse_loss(probs, ema_preds)
    loss = sup_loss + 1.0 * cons_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema_preds = alpha * ema_preds + (1 - alpha) * probs.detach()
