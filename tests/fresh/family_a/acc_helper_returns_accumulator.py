# cause: accumulated_loss_backward_in_loop
# line: 14
# why: The helper adds the graph-attached loss to the accumulator it returns and backpropagates the accumulator, so each call re-enters earlier freed graphs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def train_step(model, opt, x, y, acc):
    opt.zero_grad()
    loss = F.smooth_l1_loss(model(x), y)
    acc = acc + 0.5 * loss
    acc.backward()
    opt.step()
    return acc


model = nn.Sequential(nn.Linear(2, 8), nn.ELU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(4, 2), torch.randn(4, 1)) for _ in range(3)]
acc = torch.zeros(())
for epoch in range(2):
    for x, y in batches:
        acc = train_step(model, opt, x, y, acc)
print(acc.item())
