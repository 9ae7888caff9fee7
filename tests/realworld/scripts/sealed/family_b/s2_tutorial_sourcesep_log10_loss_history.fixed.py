# source: https://github.com/source-separation/tutorial/issues/28
# style: tutorial
# cause: numpy_on_grad_tensor
# line: 34
# expert: store the loss history detached from the graph (losses[j].append(loss.detach()), or loss.item()) so np.log10 can convert it
import numpy as np
import torch

torch.manual_seed(0)

LEARNING_RATES = [1e-3, 1e-2, 1e-1]
N_ITERATIONS = 20

x = torch.randn(64, 4)
true_w = torch.tensor([[1.0], [-2.0], [0.5], [3.0]])
y = x @ true_w + 0.1 * torch.randn(64, 1)


def loss_fn(w):
    return ((x @ w - y) ** 2).mean()


grad_norms = []
losses = []
for j, lr in enumerate(LEARNING_RATES):
    grad_norms.append([])
    losses.append([])
    w = torch.zeros(4, 1, requires_grad=True)
    for i in range(N_ITERATIONS):
        loss = loss_fn(w)
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
        grad_norms[j].append(w.grad.norm().item())
        losses[j].append(loss.detach())
        w.grad.zero_()

for j, lr in enumerate(LEARNING_RATES):
    print(f'Learning rate: {lr}', np.round(grad_norms[j][-1], 3))

for j, lr in enumerate(LEARNING_RATES):
    log_loss = np.log10(losses[j])
    print(f'Learning rate: {lr}', 'log(loss)', np.round(log_loss[-1], 3))
