# cause: no_grad_fn
# line: 11
# why: The predict helper (written for evaluation) runs the forward under torch.no_grad(), so the training loss built from it has no grad_fn.
import torch
import torch.nn as nn

torch.manual_seed(0)


def predict(model, x):
    with torch.no_grad():
        return model(x)


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
crit = nn.MSELoss()
data = [(torch.randn(5, 4), torch.randn(5, 1)) for _ in range(3)]
for x, y in data:
    out = predict(model, x)
    loss = crit(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
