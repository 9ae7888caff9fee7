# source: variant of https://androidkt.com/how-to-calculate-running-loss-using-loss-item-in-pytorch/
# scenario: rerun
# cause: double_backward
# root: cell 1 line 5
# order: 0 1 2 2
# expert: run the forward pass and the loss in the same cell as backward (zero_grad, outputs = model(inputs), loss = criterion(outputs, labels), loss.backward(), optimizer.step()), so every run of the step builds a fresh graph
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
dataloaders = [(torch.randn(16, 20), torch.randint(0, 4, (16,))) for _ in range(3)]
model.train()  # Set model to training mode
running_loss = 0.0
# %%
inputs, labels = dataloaders[0]
# %%
# zero the parameter gradients
optimizer.zero_grad()
outputs = model(inputs)
loss = criterion(outputs, labels)
# backward + optimize
loss.backward()
optimizer.step()
# statistics
running_loss += loss.item() * inputs.size(0)
print(running_loss)
