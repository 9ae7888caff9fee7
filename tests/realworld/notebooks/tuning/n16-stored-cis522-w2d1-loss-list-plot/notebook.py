# source: variant of https://github.com/CIS-522/course-content/pull/2
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: cell 2 line 11
# expert: the training cell keeps every loss tensor l (still attached to the graph, requires_grad=True) in the losses list, and the plotting cell converts that list to a numpy array, which fails; the PR detaches each loss before appending it (losses.append(l.detach())).
# %%
import numpy as np
import torch
torch.manual_seed(0)


class plt:  # stand-in for matplotlib.pyplot: plot() converts its data with numpy as matplotlib does
    @staticmethod
    def plot(x, y):
        return np.asarray(list(x), dtype=float), np.asarray(y, dtype=float)

    @staticmethod
    def show():
        pass

# linear regression data: y = w1 * x + b + noise
x = torch.rand(50, 1) * 10
y = 2.0 * x + 1.0 + torch.randn(50, 1)
# %%
w1 = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.01
num_epochs = 20


def mse(y_hat, y):
    return ((y_hat - y) ** 2).mean()
# %%
losses = []
for epoch in range(num_epochs):
    y_hat = w1 * x + b
    l = mse(y_hat, y)
    l.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        b -= lr * b.grad
        w1.grad.zero_()
        b.grad.zero_()
    losses.append(l)
print(w1, b)
# %%
plt.plot(range(num_epochs), losses)
plt.show()
