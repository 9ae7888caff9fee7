# expert fix of n2-fastbook-mnist-weights-view-inplace
# %%
import torch
torch.manual_seed(0)
# stand-ins for the stacked 3s and 7s images of the MNIST_SAMPLE set
train_x = torch.rand(64, 28*28)
train_y = (torch.rand(64, 1) > 0.5).float()
train_x.shape, train_y.shape
# %%
def init_params(size, std=1.0): return (torch.randn(size)*std).requires_grad_()
# %%
weights = init_params((28*28,1))
bias = init_params(1)
# %%
(train_x[0]*weights.T).sum() + bias
# %%
def linear1(xb): return xb@weights + bias
preds = linear1(train_x)
preds
# %%
corrects = (preds>0.0).float() == train_y
corrects.float().mean().item()
# %%
with torch.no_grad(): weights[0] *= 1.0001
preds = linear1(train_x)
((preds>0.0).float() == train_y).float().mean().item()
