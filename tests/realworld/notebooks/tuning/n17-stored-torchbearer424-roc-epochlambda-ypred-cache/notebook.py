# source: https://github.com/pytorchbearer/torchbearer/issues/424 (torchbearer 0.2.2's EpochLambda and RocAucScore from torchbearer/metrics as they were before PR #425, with a stand-in torchbearer.Model fitting loop, in torchbearer.py next to the notebook, a small MLP on random 10-class data instead of the reporter's model, and a numpy ROC AUC in place of sklearn's)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: file torchbearer.py line 66
# expert: the 'roc_auc' metric is an EpochLambda: each batch it concatenates the model outputs state[Y_PRED] (which still require grad) onto its cached self._y_pred and calls sklearn on y_pred.cpu().numpy(), which fails for a tensor in the graph; torchbearer's fix (PR #425, 'Roc metric now detaches y_pred') converts with y_pred.cpu().detach().numpy().
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
