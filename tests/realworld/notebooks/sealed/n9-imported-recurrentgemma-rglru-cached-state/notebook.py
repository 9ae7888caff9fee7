# source: variant of https://github.com/huggingface/transformers/pull/43203
# scenario: imported_module
# cause: recurrent_state_not_detached
# root: file recurrent_gemma.py line 70
# expert: RecurrentGemmaRglru keeps the last recurrent state in self.recurrent_states, and with use_cache=False the recurrent block never clears it, so the next training batch starts its scan from the previous batch's graph-attached state (multiplying it by a zero reset gate still keeps it in the graph) and its backward runs into the freed graph; the PR clears the cache in the use_cache=False branch (self.conv1d_state = None; self.rg_lru.recurrent_states = None) so every forward starts from a fresh zero state.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
from recurrent_gemma import RecurrentGemmaRecurrentBlock
torch.manual_seed(0)
# %%
config = SimpleNamespace(hidden_size=16, lru_width=16, num_attention_heads=4, conv1d_width=4)

class RGLRUClassifier(nn.Module):
    """one recurrent (RG-LRU) block followed by a linear layer, MNIST rows as the sequence"""
    def __init__(self, config, in_features=28, n_classes=10):
        super().__init__()
        self.inp = nn.Linear(in_features, config.hidden_size)
        self.block = RecurrentGemmaRecurrentBlock(config)
        self.head = nn.Linear(config.hidden_size, n_classes)

    def forward(self, x):
        b, t, _ = x.shape
        position_ids = torch.arange(t).unsqueeze(0).expand(b, t)
        h = self.block(self.inp(x), position_ids=position_ids, use_cache=False)
        return self.head(h[:, -1])

model = RGLRUClassifier(config)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
# stand-in for the MNIST loader: 3 batches of 4 images, 28 rows of 28 pixels
train_loader = [(torch.rand(4, 28, 28), torch.randint(0, 10, (4,))) for _ in range(3)]
# %%
for epoch in range(1):
    for images, labels in train_loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())
