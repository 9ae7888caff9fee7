# source: https://github.com/pytorch/pytorch/issues/69353
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 2 line 4
# expert: pruning stores out_proj.weight = weight_orig * weight_mask as a plain tensor when the pruning cell runs and relies on out_proj's forward pre-hook to recompute it before every forward; but nn.MultiheadAttention never calls self.out_proj(...), it passes self.out_proj.weight straight to F.multi_head_attention_forward, so the hook never fires (pytorch#78109) and every training step reuses the weight tensor computed once in the pruning cell, whose graph the first backward frees. The reporter pinned it on the out_proj entry ("problem in this line"); leave the MultiheadAttention out_proj out of the parameters to prune.
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
    (model.att.out_proj, "weight"),
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
