# source: variant of https://github.com/microsoft/aurora/issues/147
# style: physics
# cause: tensor_reused_across_iterations
# line: 33
# expert: Rollout fine-tuning feeds each prediction back in as the next input and does a gradient update at every step; the closure keeps the prediction with its graph, so the next step's loss reaches into the previous step's graph, freed by its backward. As the maintainers describe (pushforward trick: gradients only through the last roll-out step), treat the prediction like a batch from the dataset: keep pred.detach() as the next input.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyWeatherModel(nn.Module):
    """Stand-in for Aurora: maps the atmospheric state at t to t + 6h on a small lat/lon grid."""
    def __init__(self, n_vars=3, hidden=16):
        super().__init__()
        self.encoder = nn.Conv2d(n_vars, hidden, 3, padding=1)
        self.processor = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.decoder = nn.Conv2d(hidden, n_vars, 3, padding=1)

    def forward(self, x):
        h = F.gelu(self.encoder(x))
        h = F.gelu(self.processor(h))
        return x + self.decoder(h)  # residual update of the state


def rollout_stepper(model, initial_batch):
    current = initial_batch

    def step():
        nonlocal current
        pred = model(current)
        current = pred.detach()
        return pred

    return step


model = TinyWeatherModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

# ERA5-like trajectory: the state at t0 and targets every 6 hours
trajectory = torch.randn(5, 2, 3, 8, 16)
step = rollout_stepper(model, trajectory[0])
for k in range(1, trajectory.size(0)):
    pred = step()
    loss = F.l1_loss(pred, trajectory[k])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"roll-out step {k} (+{6 * k}h): loss {loss.item():.4f}")
