# cause: accumulated_loss_backward_in_loop
# line: 21
# why: totals[k] = totals[k] + v accumulates graph-attached losses across steps and the summed totals are backpropagated each step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(12, 6), nn.ReLU())
decoder = nn.Linear(6, 12)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-2)
batches = [torch.randn(8, 12) for _ in range(4)]
totals = {"recon": 0.0, "sparsity": 0.0}

for step, x in enumerate(batches):
    z = encoder(x)
    x_hat = decoder(z)
    losses = {"recon": F.mse_loss(x_hat, x), "sparsity": 1e-2 * z.abs().mean()}
    for k, v in losses.items():
        totals[k] = totals[k] + v
    loss = sum(totals.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
