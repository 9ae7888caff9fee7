# source: https://discuss.pytorch.org/t/backpropagation-graph-is-reused-while-it-shouldnt/24554
# style: tutorial
# cause: computed_before_loop
# line: 15
# expert: recompute y = t @ a inside the loop (each iteration builds its own graph) instead of reusing the y computed once before the loop
import torch

torch.manual_seed(0)

measure = torch.nn.MSELoss()

x = torch.tensor([1, 0], dtype=torch.float64)
t = torch.eye(2, dtype=torch.float64, requires_grad=True)
a = torch.ones(2, dtype=torch.float64, requires_grad=True)
y = t @ a

for __ in range(2):
    x_out = t @ (x + y)  # Raises `RuntimeError` later on.
    loss = measure(x_out, x)
    loss.backward()
    print(loss.item(), t.grad.sum().item(), a.grad.sum().item())
