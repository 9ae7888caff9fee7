# source: variant of https://github.com/microsoft/voxelpose-pytorch/issues/47
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 2 line 7
# expert: reset the accumulated loss after every optimizer step (accu_loss_3d = 0, as lib/core/function.py train_3d does), so each accumulation window backpropagates only its own graphs
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
# tiny stand-in for the cuboid proposal / pose regression net
model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 9))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()
loader = [(torch.randn(8, 12), torch.randn(8, 9)) for _ in range(6)]
# %%
accumulation_steps = 2
accu_loss_3d = 0
# %%
model.train()
for i, (inputs, targets_3d) in enumerate(loader):
    pred = model(inputs)
    loss_3d = criterion(pred, targets_3d)

    if accumulation_steps > 1:
        accu_loss_3d += loss_3d / accumulation_steps
        if (i + 1) % accumulation_steps == 0:
            optimizer.zero_grad()
            accu_loss_3d.backward()
            optimizer.step()
    else:
        optimizer.zero_grad()
        loss_3d.backward()
        optimizer.step()
    print(i, loss_3d.item())
