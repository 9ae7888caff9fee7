# cause: tensor_reused_across_iterations
# line: 32
# why: Logits stored in self.prev_logits keep last epoch's graph and are used as soft targets in the next epoch's loss.
import torch
import torch.nn as nn
import torch.nn.functional as F



class SelfDistillTrainer:
    """Born-again style: last epoch's predictions act as soft targets."""

    def __init__(self, model, alpha=0.5, T=2.0):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.prev_logits = {}
        self.alpha = alpha
        self.T = T

    def train_epoch(self, batches):
        total = 0.0
        for i, (x, y) in enumerate(batches):
            logits = self.model(x)
            loss = F.cross_entropy(logits, y)
            if i in self.prev_logits:
                soft = F.softmax(self.prev_logits[i] / self.T, dim=-1)
                loss = loss + self.alpha * F.kl_div(F.log_softmax(logits / self.T, -1), soft,
                                                    reduction="batchmean")
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.prev_logits[i] = logits
            total += loss.item()
        return total / len(batches)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(9, 24), nn.ReLU(), nn.Linear(24, 4))
batches = [(torch.randn(10, 9), torch.randint(0, 4, (10,))) for _ in range(3)]
trainer = SelfDistillTrainer(model)
for epoch in range(3):
    print("epoch", epoch, trainer.train_epoch(batches))
