# source: https://d2l.ai/chapter_preliminaries/autograd.html
# scenario: clean
# order: 0 1 2 3
# expert: none needed: u = y.detach() cuts z's graph from y, so backpropagating z and later y each traverses its own graph once
# %%
import torch
torch.manual_seed(0)
x = torch.arange(4.0, requires_grad=True)
# %%
y = x * x
u = y.detach()
z = u * x
# %%
z.sum().backward()
x.grad == u
# %%
x.grad.zero_()
y.sum().backward()
x.grad == 2 * x
