# cause: tensor_reused_across_iterations
# line: 34
# why: The temporal-ensembling accumulator Z is updated from the graph-attached probs, so next step's consistency target drags the previous step's freed graph into backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N, D, K = 40, 10, 4
x_all = torch.randn(N, D)
y_all = torch.randint(0, K, (N,))
labeled = torch.zeros(N, dtype=torch.bool)
labeled[:10] = True

model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, K))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

alpha = 0.6
Z = torch.zeros(N, K)
targets = torch.full((N, K), 1.0 / K)

for epoch in range(4):
    w = min(1.0, epoch / 2)
    logits = model(x_all)
    probs = F.softmax(logits, dim=1)
    sup = F.cross_entropy(logits[labeled], y_all[labeled])
    cons = F.mse_loss(probs, targets)
    loss = sup + w * cons
    opt.zero_grad()
    loss.backward()
    opt.step()

    Z = alpha * Z + (1 - alpha) * probs
    targets = Z / (1 - alpha ** (epoch + 1))
    print(epoch, round(loss.item(), 4))
