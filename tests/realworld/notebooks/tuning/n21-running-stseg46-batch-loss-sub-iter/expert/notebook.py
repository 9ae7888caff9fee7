# source: variant of https://github.com/chrischoy/SpatioTemporalSegmentation/issues/46
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 1 line 11
# expert: keep batch_loss a plain number for logging (batch_loss += loss.item()) and call backward on each sub-iteration's own loss (loss.backward()), as lib/train.py does
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class config:
    iter_size = 3
    max_iter = 2

# stand-in for the sparse Res16UNet: per-point features -> 5 classes
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 5))
criterion = nn.CrossEntropyLoss(ignore_index=255)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

def data_loader():
    while True:
        yield torch.randn(64, 3), torch.randn(64, 6), torch.randint(0, 5, (64,))
data_iter = data_loader()
# %%
model.train()
for curr_iter in range(config.max_iter):
    optimizer.zero_grad()
    batch_loss = 0
    for sub_iter in range(config.iter_size):
        # Get training data
        coords, input, target = next(data_iter)
        soutput = model(input)
        loss = criterion(soutput, target.long())
        # Compute and accumulate gradient
        loss /= config.iter_size
        batch_loss += loss.item()
        loss.backward()
    # Update number of steps
    optimizer.step()
    print(curr_iter, float(batch_loss))
