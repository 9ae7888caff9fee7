# %%
import torch.nn as nn
import torch
import torch.nn.utils.prune as prune
torch.manual_seed(0)
# %%
class net(nn.Module):
    def __init__(self):
        super().__init__()

        self.att = nn.MultiheadAttention(
            embed_dim=16,
            num_heads=2,
            batch_first=True
        )
        self.proj = nn.Linear(16, 4)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        attn_output, attn_weights = self.att(x, x, x)
        logits = self.proj(attn_output)
        return logits

    def compute_loss(self, logits, target):
        loss = self.criterion(logits.reshape(-1, logits.size(-1)), target.reshape(-1))
        return loss

model = net()
# %%
# prune here
params_to_prune = [
    (model.att, "in_proj_weight"),
    (model.proj, "weight"),
]
prune.global_unstructured(params_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
# %%
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(2, 5, 16)
    target = torch.randint(0, 4, (2, 5))
    logits = model(x)
    loss = model.compute_loss(logits, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
