# cause: accumulated_loss_backward_in_loop
# line: 21
# why: loss_sum = loss_sum + loss is never reset after the accumulation step, so the next backward reaches already-freed micro-batch graphs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
batches = [(torch.randn(4, 5), torch.randn(4, 1)) for _ in range(6)]
accum_steps = 2

step = 0
loss_sum = 0
optimizer.zero_grad()
while step < len(batches):
    x, y = batches[step]
    loss = F.mse_loss(model(x), y)
    loss_sum = loss_sum + loss
    step += 1
    if step % accum_steps == 0:
        (loss_sum / accum_steps).backward()
        optimizer.step()
        optimizer.zero_grad()
