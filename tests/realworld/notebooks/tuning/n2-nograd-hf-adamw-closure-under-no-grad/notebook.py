# source: https://github.com/Lightning-AI/pytorch-lightning/issues/18222
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 2
# expert: the optimizer chosen in the setup cell (transformers' AdamW) runs the training closure inside its @torch.no_grad() step, so the loss is built without grad; use torch.optim.AdamW (whose step re-enables grad for the closure), as the maintainers advised
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from optimization import AdamW
torch.manual_seed(0)

class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(16, 32)
        self.l2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        return loss

model = LitClassifier()
train_dataloader = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(3)]
# %%
# configure_optimizers
optimizer = AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
# %%
# what the Trainer's automatic optimization does for every batch: the closure runs inside optimizer.step
for batch_idx, batch in enumerate(train_dataloader):
    def closure():
        optimizer.zero_grad()
        loss = model.training_step(batch, batch_idx)
        loss.backward()
        return loss
    loss = optimizer.step(closure=closure)
    print(batch_idx, loss.item())
