# cause: accumulated_loss_backward_in_loop
# line: 17
# why: meter['total'] += loss stores graph-attached losses in a dict, and the running average built from it is backpropagated every iteration.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Softplus(), nn.Linear(8, 2))
crit = nn.CrossEntropyLoss()
opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
batches = [(torch.randn(6, 4), torch.randint(0, 2, (6,))) for _ in range(4)]

meter = {"total": 0.0, "n": 0}
for i, (x, y) in enumerate(batches):
    out = model(x)
    loss = crit(out, y)
    meter["total"] += loss
    meter["n"] += 1
    avg = meter["total"] / meter["n"]
    opt.zero_grad()
    avg.backward()
    opt.step()
    print(i, float(avg))
