# source: variant of https://github.com/source-separation/tutorial/issues/18 (book/training/gradient_descent.ipynb with the parameter writes under torch.no_grad() as fixed for the issue, its cells up to the gradient at the loss minimum; that cell, which the book runs as one block (line = Line() ... _loss.backward(); line.layer.weight.grad, line.layer.bias.grad), is split here after the loss, and the backward/gradient cell is run a second time to look at the gradient again; _stub_nussl.py stands in for nussl and _stub_pyplot.py for matplotlib.pyplot)
# scenario: rerun
# cause: double_backward
# root: cell 9 line 7
# order: 0 1 2 3 4 5 6 7 8 9 10 10
# expert: _loss is built once in the cell above, and the first run of the backward cell frees its graph (abs() saved its input), so running that cell again backpropagates through a freed graph. As the book's own cell does, compute the prediction and the loss in the same cell that calls _loss.backward(), so every run builds a fresh graph (and a fresh Line, so the gradients do not accumulate).
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
        with torch.no_grad():
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
# %%
idx = np.unravel_index(np.argmin(loss, axis=None), loss.shape)
m_hat = possible_m[idx[0]]
b_hat = possible_b[idx[1]]

print(f"Loss minimum of {loss.min():-2f} at \n\t m_hat={m_hat:0.2f}, b_hat={b_hat:-.2f}")
print(f"Actual m, b: \n\t m={m:.2f}, b={b:.2f}")
# %%
line = Line()
with torch.no_grad():
    line.layer.weight[0, 0] = m_hat
    line.layer.bias[0] = b_hat

y_hat = line(to_tensor(x))
_loss = (y_hat - to_tensor(y)).abs().mean()
# %%
_loss.backward()

line.layer.weight.grad, line.layer.bias.grad
