# source: https://discuss.pytorch.org/t/how-to-compute-jacobian-matrix-in-pytorch/14968
# style: tutorial
# expert: legitimate retain_graph inside a loop: one forward graph is backpropagated once per output row to build the Jacobian, x.grad is zeroed between rows, and the graph is released after the last row
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))


def jacobian(model, x):
    x = x.clone().requires_grad_(True)
    y = model(x)
    n_out = y.shape[-1]
    jac = []
    for i in range(n_out):
        retain = i < n_out - 1
        y[0, i].backward(retain_graph=retain)
        jac.append(x.grad.clone())
        x.grad.zero_()
    return torch.cat(jac, dim=0)


for step in range(3):
    x = torch.randn(1, 4)
    J = jacobian(model, x)
    J_ref = torch.autograd.functional.jacobian(lambda t: model(t)[0], x)[:, 0, :]
    print(step, J.shape, torch.allclose(J, J_ref, atol=1e-6))
