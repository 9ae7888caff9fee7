# source: https://github.com/pytorch/pytorch/issues/6180 ("GIF in README needs to be edited": the README's dynamic-graph example, x, prev_h, W_h and W_x made as Variables without requires_grad, i2h/h2h/next_h, then next_h.backward(...); "When I run this code, the first error is: RuntimeError: element 0 of variables does not require grad and does not have a grad_fn". Run as notebook cells, the variables in a setup cell; the backward call is the reporter's next_h.backward(torch.ones(20, 1)) because current PyTorch checks the README's torch.ones(1, 20) against next_h's [20, 1] shape before it looks for a grad_fn; torch.manual_seed added)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 1
# expert: None of the four Variables made in the setup cell requires grad, so next_h has no grad_fn and backward has nothing to differentiate. As the reporter settled, create x, prev_h, W_h and W_x with requires_grad=True ("setting requires_grad=True for all four variables") and call next_h.backward(torch.ones(20, 1)), a gradient of next_h's own [20, 1] shape.
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
print(W_h.grad.shape, W_x.grad.shape)
