# source: https://github.com/source-separation/tutorial/issues/18 (book/training/gradient_descent.ipynb at a220925, the version the screenshot comes from, its code cells up to the "2D Visualization of Loss Landscape" cell where the gradient-descent section first crashes; _stub_nussl.py stands in for nussl (nussl.utils.seed only) and _stub_pyplot.py for matplotlib.pyplot; the gif/tempfile imports and show_gif helper, used only by later animation cells, are left out)
# scenario: earlier_cell
# cause: leaf_inplace
# root: cell 7 line 10
# expert: line is a Line module from an earlier cell whose nn.Linear weight and bias are leaf parameters that require grad, so writing the grid values into them (line.layer.weight[0, 0] = m_hat) is an in-place op on a view of a leaf and PyTorch refuses it. As the answer suggests and the fix merged for it (#26) does, do the parameter writes under torch.no_grad() (the form the notebook already uses a few cells later: with torch.no_grad(): line.layer.weight[0, 0] = m_hat; line.layer.bias[0] = b_hat).
# %%
import torch
from torch import nn
import _stub_nussl as nussl  # stands in for nussl
import numpy as np
import _stub_pyplot as plt  # stands in for matplotlib.pyplot
import copy
import tqdm

nussl.utils.seed(0)
to_numpy = lambda x: x.detach().numpy()
to_tensor = lambda x: torch.from_numpy(x).reshape(-1, 1).float()
# %%
class Line(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(1, 1)

    def forward(self, x):
        y = self.layer(x)
        return y
    
line = Line()
x = torch.randn(100, 1)
y = line(x)

plt.title("Prediction of network at iteration. 0")
plt.scatter(to_numpy(x), to_numpy(y))
plt.show()
# %%
for n, p in line.named_parameters():
    print(n, p)
# %%
m = np.random.randn()
b = np.random.randn()
x = np.linspace(-10, 10, 100)
noise = np.random.normal(loc=0, scale=0.1, size=100)

y = m*x + b + noise

plt.title("Training data")
plt.scatter(x, y)
plt.show()
# %%
y_hat = line(to_tensor(x))

plt.title("Training data + network predictions")
plt.scatter(x, y, label='Training data')
plt.scatter(x, to_numpy(y_hat), label='Network predictions')
plt.xlabel('x')
plt.ylabel('y')
plt.show()
# %%
loss = (y_hat - to_tensor(y)).abs()
plt.title("Loss for each data point")
plt.scatter(x, to_numpy(loss))
plt.ylabel("Loss")
plt.xlabel("x")
plt.show()
# %%
loss.mean()
# %%
possible_m = np.linspace(-2, 2, 100)
possible_b = np.linspace(-2, 2, 100)
loss = np.empty((
    possible_m.shape[0], 
    possible_b.shape[0]
))

for i, m_hat in enumerate(possible_m):
    for j, b_hat in enumerate(possible_b):
        line.layer.weight[0, 0] = m_hat
        line.layer.bias[0] = b_hat
        y_hat = line(to_tensor(x))
        _loss = (y_hat - to_tensor(y)).abs().mean()
        loss[i, j] = _loss

plt.title('2D Visualization of Loss Landscape')
plt.pcolormesh(possible_m, possible_b, loss, shading='auto')
plt.colorbar()
plt.xlabel('Value of m')
plt.ylabel('Value of b')
plt.show()
