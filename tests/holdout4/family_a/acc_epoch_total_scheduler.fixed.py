import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(120, 5)
w_true = torch.randn(5, 1)
Y = X @ w_true + 0.1 * torch.randn(120, 1)
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
loader = list(zip(X.split(20), Y.split(20)))
history = []
for epoch in range(4):
    epoch_loss = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = F.mse_loss(model(xb), yb)
        epoch_loss += loss.detach()
        loss.backward()
        opt.step()
    sched.step()
    history.append(epoch_loss.item() / len(loader))
    print(f"epoch {epoch}: {history[-1]:.4f} lr={sched.get_last_lr()[0]:.4f}")
