# source: https://github.com/keras-team/keras-core/pull/669
# scenario: imported_module
# cause: computed_before_loop
# root: file cct.py line 31
# expert: move the positional embedding into a PositionEmbedding layer that embeds the positions on every call (the fix the PR reuses from #663), instead of embedding them once when cct.py builds the model
# %%
import torch
import torch.nn as nn
from cct import create_cct_model
torch.manual_seed(0)
x_train = torch.randn(24, 3, 16, 16)
y_train = torch.randint(0, 4, (24,))
# %%
cct_model = create_cct_model(positional_emb=True)
optimizer = torch.optim.AdamW(cct_model.parameters(), lr=1e-3, weight_decay=1e-4)
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
# %%
def run_experiment(model, epochs=2, batch_size=8):
    for epoch in range(epochs):
        for i in range(0, len(x_train), batch_size):
            loss = loss_fn(model(x_train[i:i + batch_size]), y_train[i:i + batch_size])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())

run_experiment(cct_model)
