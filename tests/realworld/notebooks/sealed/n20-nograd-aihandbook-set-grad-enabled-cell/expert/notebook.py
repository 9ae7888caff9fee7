# source: variant of https://github.com/itmorn/AI.handbook (DL/torch/nn/GradientComputation/GradientComputation.ipynb: its set_grad_enabled demo cell ends with `_ = torch.set_grad_enabled(False)`, which leaves autograd switched off for the whole kernel; here a small regression model is trained in the cells that follow in the same notebook)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 0 line 10
# expert: The demo cell's last call, torch.set_grad_enabled(False), is not scoped by a with-block, so gradient recording stays off globally and the later training cell builds its loss without any graph; switch it back on (torch.set_grad_enabled(True)) at the end of the demo cell, or use it only as a context manager.
# %%
import torch
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
  y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
# %%
import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(64, 3)
Y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
# %%
for epoch in range(20):
    optimizer.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    optimizer.step()
print(loss.item())
