import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, accum_steps=2):
        self.model = model
        self.accum_steps = accum_steps
        self.opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
        self.sched = torch.optim.lr_scheduler.OneCycleLR(self.opt, max_lr=3e-3, total_steps=20)
        self.running_loss = 0.0
        self.history = []
        self.ema_loss = None

    def fit(self, xs, ys, epochs=2):
        for epoch in range(epochs):
            self.opt.zero_grad()
            for i in range(0, len(xs), 8):
                loss = F.cross_entropy(self.model(xs[i:i + 8]), ys[i:i + 8]) / self.accum_steps
                loss.backward()
                self.running_loss += loss.item()
                val = loss.detach()
                self.ema_loss = val if self.ema_loss is None else 0.9 * self.ema_loss + 0.1 * val
                if (i // 8 + 1) % self.accum_steps == 0:
                    nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                    self.opt.step()
                    self.sched.step()
                    self.opt.zero_grad()
                    self.history.append(self.running_loss)
                    self.running_loss = 0.0
            print(epoch, self.history[-1], float(self.ema_loss))


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
trainer = Trainer(model)
xs, ys = torch.randn(64, 6), torch.randint(0, 3, (64,))
trainer.fit(xs, ys)
