# source: variant of https://github.com/pytorch/pytorch/issues/6180 (the README's dynamic-graph example as the reporter corrected it, the four Variables made with requires_grad=True and next_h.backward(torch.ones(20, 1)); here it is split into notebook cells, the forward cell computing i2h, h2h and next_h and a separate backward cell that prints the gradients, and the backward cell is run a second time, as one does to look at the gradients again; torch.manual_seed added)
# scenario: rerun
# cause: double_backward
# root: cell 2 line 4
# order: 0 1 2 3 3
# expert: next_h is built once in the forward cell; the first run of the backward cell frees its graph (mm and tanh saved their inputs and output), so running that cell again backpropagates through the freed graph. Recompute the forward inside the backward cell (i2h, h2h, next_h = ...tanh() right before next_h.backward(torch.ones(20, 1))) so every run builds a fresh graph; clear the .grad fields first if the repeated gradients are not meant to add up.
# %%
import torch
from torch.autograd import Variable

torch.manual_seed(0)
# %%
x = Variable(torch.randn(1, 10), requires_grad=True)
prev_h = Variable(torch.randn(1, 20), requires_grad=True)
W_h = Variable(torch.randn(20, 20), requires_grad=True)
W_x = Variable(torch.randn(20, 10), requires_grad=True)
# %%
i2h = torch.mm(W_x, x.t())
h2h = torch.mm(W_h, prev_h.t())
next_h = i2h + h2h
next_h = next_h.tanh()
# %%
next_h.backward(torch.ones(20, 1))
print(W_h.grad.norm().item(), W_x.grad.norm().item())
