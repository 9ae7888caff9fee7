import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GradNormCallback:
    def __init__(self):
        self.norms = []

    def on_after_backward(self, trainer):
        grads = [p.grad for p in trainer.model.parameters() if p.grad is not None]
        self.norms.append(torch.sqrt(sum((g ** 2).sum() for g in grads)).item())


class EarlyStopping:
    def __init__(self, patience=2):
        self.best, self.bad, self.patience = float("inf"), 0, patience

    def on_epoch_end(self, trainer, val_loss):
        if val_loss < self.best - 1e-4:
            self.best, self.bad = val_loss, 0
        else:
            self.bad += 1
        trainer.stop = self.bad >= self.patience


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        self.sched = torch.optim.lr_scheduler.StepLR(self.opt, step_size=2, gamma=0.5)
        self.callbacks = callbacks
        self.stop = False

    @torch.no_grad()
    def evaluate(self, X, Y):
        self.model.eval()
        return F.cross_entropy(self.model(X), Y).item()

    def fit(self, loader, val, epochs=4):
        for epoch in range(epochs):
            self.model.train()
            running = 0.0
            for xb, yb in loader:
                self.opt.zero_grad()
                loss = F.cross_entropy(self.model(xb), yb)
                loss.backward()
                for cb in self.callbacks:
                    if hasattr(cb, "on_after_backward"):
                        cb.on_after_backward(self)
                self.opt.step()
                running += loss.item()
            self.sched.step()
            val_loss = self.evaluate(*val)
            for cb in self.callbacks:
                if hasattr(cb, "on_epoch_end"):
                    cb.on_epoch_end(self, val_loss)
            if self.stop:
                break
        return self


X = torch.randn(64, 10)
Y = (X[:, 0] > 0).long()
loader = [(X[i:i + 16], Y[i:i + 16]) for i in range(0, 48, 16)]
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
trainer = Trainer(model, [GradNormCallback(), EarlyStopping()]).fit(loader, (X[48:], Y[48:]))
