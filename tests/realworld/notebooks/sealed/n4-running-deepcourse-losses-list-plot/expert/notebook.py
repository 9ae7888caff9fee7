# expert fix of n4-running-deepcourse-losses-list-plot
# %%
import numpy as np
import torch
torch.manual_seed(0)
x = torch.linspace(-2, 2, 64).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.randn_like(x)
w = torch.randn(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
learning_rate = 0.05
# %%
epochs = []
losses = []
# %%
for epoch in range(20):
    y_pred = x @ w + b
    loss = ((y_pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= learning_rate * w.grad
        b -= learning_rate * b.grad
    w.grad.zero_(); b.grad.zero_()
    epochs.append(epoch)
    losses.append(loss.detach())
# %%
# plt.subplot(1, 2, 1); plt.plot(epochs, losses): matplotlib converts the list with numpy, printed as text here
curve = np.asarray(losses, dtype=float)
print("Epoch", epochs[::5])
print("Loss", curve[::5].round(4))
