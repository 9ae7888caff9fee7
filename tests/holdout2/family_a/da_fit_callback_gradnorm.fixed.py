import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GradNormMonitor:
    def __init__(self):
        self.history = []

    def on_after_backward(self, trainer, loss):
        params = [p for p in trainer.model.parameters() if p.requires_grad]
        grads = [p.grad for p in params if p.grad is not None]
        self.history.append(torch.sqrt(sum((g ** 2).sum() for g in grads)).item())


class LossLogger:
    def __init__(self):
        self.losses = []

    def on_after_backward(self, trainer, loss):
        self.losses.append(loss.item())


class Trainer:
    def __init__(self, model, lr=0.05, callbacks=()):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.callbacks = list(callbacks)

    def training_step(self, xb, yb):
        return F.cross_entropy(self.model(xb), yb)

    def fit(self, loader, epochs=2):
        self.model.train()
        for epoch in range(epochs):
            for xb, yb in loader:
                self.opt.zero_grad()
                loss = self.training_step(xb, yb)
                loss.backward()
                for cb in self.callbacks:
                    cb.on_after_backward(self, loss)
                self.opt.step()
        return self


X = torch.randn(64, 10)
Y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
loader = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 64, 16)]
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
monitor = GradNormMonitor()
logger = LossLogger()
trainer = Trainer(model, callbacks=[logger, monitor]).fit(loader)
