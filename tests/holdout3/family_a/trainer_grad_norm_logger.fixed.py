import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=1e-2, log_every=2):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.log_every = log_every
        self.step = 0
        self.history = {"loss": [], "grad_norm": []}

    def grad_norm(self):
        # gradients are already in p.grad after train_step's backward
        total = 0.0
        for p in self.model.parameters():
            if p.grad is not None:
                total += p.grad.pow(2).sum().item()
        return total ** 0.5

    def train_step(self, x, y):
        self.opt.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        if self.step % self.log_every == 0:
            self.history["grad_norm"].append(self.grad_norm())
        self.opt.step()
        self.history["loss"].append(loss.item())
        self.step += 1
        return loss.item()


model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
trainer = Trainer(model)
X = torch.randn(64, 6)
Y = X[:, :1] * 2 - X[:, 1:2]
for epoch in range(3):
    for i in range(0, 64, 16):
        trainer.train_step(X[i:i + 16], Y[i:i + 16])
print(trainer.history["loss"][-1])
