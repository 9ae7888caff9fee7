# cause: tensor_reused_across_iterations
# line: 31
# why: The EMA prediction target is updated from graph-attached probs, so next epoch's consistency loss backpropagates into the previous epoch's freed graph.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Temporal ensembling (semi-supervised): an EMA of past predictions on the
# unlabelled set is used as a consistency target with a ramp-up weight.
X_lab = torch.randn(20, 6)
Y_lab = (X_lab[:, 0] > 0).long()
X_unlab = torch.randn(40, 6)

model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Dropout(0.2), nn.Linear(24, 2))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
alpha = 0.6
n_epochs = 4
ensemble = torch.zeros(40, 2)
for epoch in range(n_epochs):
    model.train()
    sup = F.cross_entropy(model(X_lab), Y_lab)
    probs = torch.softmax(model(X_unlab), dim=1)
    target = ensemble / (1 - alpha ** epoch) if epoch > 0 else ensemble
    ramp = epoch / (n_epochs - 1)
    loss = sup + ramp * F.mse_loss(probs, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ensemble = alpha * ensemble + (1 - alpha) * probs
