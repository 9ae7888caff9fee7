# source: https://github.com/learnables/learn2learn/issues/308 (the clone_module / detach_module example of learn2learn/utils/__init__.py at fab0e11 that the issue quotes, with the missing "nn." added as the issue says, run as notebook cells; random X, y and nn.CrossEntropyLoss as the loss; _stub_learn2learn_utils.py stands in for learn2learn.utils with the library's clone_module and detach_module)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 1 line 3
# expert: detach_module(clone) detaches the cloned parameters in place and, with the default keep_requires_grad=False, leaves them not requiring grad, so error = loss(clone(X), y) has no grad_fn and error.backward() fails. As the issue proposes and the maintainer accepts, call detach_module(clone, keep_requires_grad=True) so the detached clone is still trainable and the gradients land on clone, not net.
# %%
import torch
import torch.nn as nn
from _stub_learn2learn_utils import clone_module, detach_module  # stands in for learn2learn.utils

torch.manual_seed(0)
X = torch.randn(16, 20)
y = torch.randint(0, 2, (16,))
loss = nn.CrossEntropyLoss()
# %%
net = nn.Sequential(nn.Linear(20, 10), nn.ReLU(), nn.Linear(10, 2))
clone = clone_module(net)
detach_module(clone)
# %%
error = loss(clone(X), y)
error.backward()  # Gradients are back-propagated on clone, not net.
print(clone[0].weight.grad.norm(), net[0].weight.grad)
