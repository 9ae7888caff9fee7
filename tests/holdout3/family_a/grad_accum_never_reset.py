# cause: accumulated_loss_backward_in_loop
# line: 22
# why: accum_loss keeps adding micro-batch losses and is never reset after the optimizer step, so the next backward reaches the already-freed graphs of earlier micro-batches.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Embedding(50, 16), nn.Flatten(), nn.Linear(16 * 6, 5))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
tokens = torch.randint(0, 50, (64, 6))
labels = torch.randint(0, 5, (64,))

accum_steps = 2
accum_loss = 0.0
log = []
for i in range(8):
    xb = tokens[i * 8:(i + 1) * 8]
    yb = labels[i * 8:(i + 1) * 8]
    loss = F.cross_entropy(model(xb), yb)
    accum_loss = accum_loss + loss / accum_steps
    if (i + 1) % accum_steps == 0:
        opt.zero_grad()
        accum_loss.backward()
        opt.step()
        log.append(accum_loss.item())

print(log)
