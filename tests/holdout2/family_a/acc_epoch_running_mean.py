# cause: accumulated_loss_backward_in_loop
# line: 26
# why: epoch_loss keeps every earlier batch's graph, and backward of the running mean at the second batch re-enters the first batch's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X = torch.randn(96, 8)
true_w = torch.randn(8, 1)
Y = X @ true_w + 0.05 * torch.randn(96, 1)
batches = list(zip(X.split(24), Y.split(24)))

model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 1))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
history = []
for epoch in range(4):
    model.train()
    epoch_loss = 0.0
    for step, (xb, yb) in enumerate(batches):
        opt.zero_grad()
        pred = model(xb)
        batch_loss = F.smooth_l1_loss(pred, yb)
        epoch_loss = epoch_loss + batch_loss
        (epoch_loss / (step + 1)).backward()
        opt.step()
    scheduler.step()
    history.append(float(epoch_loss) / len(batches))
