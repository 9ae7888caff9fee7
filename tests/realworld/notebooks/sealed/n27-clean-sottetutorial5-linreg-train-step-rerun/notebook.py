# source: https://github.com/sotte/pytorch_tutorial/issues/5 (notebooks/lin_reg.py of sotte/pytorch_tutorial, the linear regression notebook the issue is about, as it reads after the fix (loss.backward() instead of loss.backward(loss)); its "Train step" cell does one full-batch gradient step with evaluation and a plot, and is run three times in a row as the notebook invites; _stub_pyplot.py stands in for matplotlib.pyplot and _stub_sklearn_datasets.py for sklearn.datasets.make_regression; torchvision, which the notebook imports but does not use, is left out)
# scenario: clean
# order: 0 1 2 3 4 5 6 6 6
# expert: nothing to fix: every run of the "Train step" cell recomputes y_ and loss from the model before calling loss.backward(), so each backward has its own fresh graph.
# %%
# # %matplotlib inline
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

DEVICE = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
DEVICE
# %%
from pprint import pprint

import _stub_pyplot as plt  # stands in for matplotlib.pyplot
import numpy as np
from IPython.core.debugger import set_trace
# %%
from _stub_sklearn_datasets import make_regression  # stands in for sklearn.datasets


n_features = 1
n_samples = 100

X, y = make_regression(
    n_samples=n_samples,
    n_features=n_features,
    noise=20,
    random_state=42,
)

fix, ax = plt.subplots()
ax.plot(X, y, ".")
# %%
X = torch.from_numpy(X).float()
y = torch.from_numpy(y.reshape((n_samples, n_features))).float()
# %%
class LinReg(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.beta = nn.Linear(input_dim, 1)
        
    def forward(self, X):
        return self.beta(X)

# or just
# model = nn.Linear(input_dim, 1)
# %%
torch.manual_seed(0)
model = LinReg(n_features).to(DEVICE)  # <-- here
loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)


X, y = X.to(DEVICE), y.to(DEVICE)  # <-- here
# %%
# Train step
model.train()  # <-- here
optimizer.zero_grad()

y_ = model(X)
loss = loss_fn(y_, y)

loss.backward()
optimizer.step()

# Eval
model.eval()  # <-- here
with torch.no_grad():
    y_ = model(X)    

# Vis
fig, ax = plt.subplots()
ax.plot(X.cpu().numpy(), y_.cpu().numpy(), ".", label="pred")
ax.plot(X.cpu().numpy(), y.cpu().numpy(), ".", label="data")
ax.set_title(f"MSE: {loss.item():0.1f}")
ax.legend();
