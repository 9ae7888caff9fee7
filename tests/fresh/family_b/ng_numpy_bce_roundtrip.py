# cause: no_grad_fn
# line: 15
# why: The predictions are detached and converted to numpy to compute the loss there, so the loss tensor rebuilt from numpy has no graph.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
X = torch.randn(10, 3)
y = (X[:, 0] > 0).float().numpy()[:, None]

for epoch in range(3):
    probs = torch.sigmoid(model(X)).detach().numpy()
    probs = np.clip(probs, 1e-6, 1 - 1e-6)
    bce = -np.mean(y * np.log(probs) + (1 - y) * np.log(1 - probs))
    loss = torch.from_numpy(np.asarray(bce))
    opt.zero_grad()
    loss.backward()
    opt.step()
