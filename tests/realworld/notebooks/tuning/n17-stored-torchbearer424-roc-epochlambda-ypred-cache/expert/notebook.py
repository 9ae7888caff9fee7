# %%
import torch
import torch.nn as nn
import torchbearer  # torchbearer.py next to the notebook: the parts of torchbearer 0.2.2 used here
torch.manual_seed(0)

x_train = torch.randn(256, 20)
y_train = torch.randint(0, 10, (256,))
trainloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x_train, y_train), batch_size=32,
                                          shuffle=True, generator=torch.Generator().manual_seed(0))

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
torchbearer_model = torchbearer.Model(model, optimizer, nn.CrossEntropyLoss(), metrics=['roc_auc'])
# %%
history = torchbearer_model.fit_generator(trainloader, epochs=2)
