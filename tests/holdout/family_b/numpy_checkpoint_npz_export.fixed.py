import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def save_checkpoint_npz(model, fileobj):
    arrays = {name: p.detach().cpu().numpy() for name, p in model.named_parameters()}
    np.savez(fileobj, **arrays)
    return arrays


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(6, 4), torch.randint(0, 2, (6,))
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

buf = io.BytesIO()
arrays = save_checkpoint_npz(model, buf)
