# source: https://github.com/fastai/fastbook/pull/471
# style: vision
# cause: leaf_inplace
# line: 35
# expert: change the parameter's data, not the autograd leaf: weights[0].data *= 1.0001 (the fix merged in fastbook master)
import torch

torch.manual_seed(0)


def init_params(size, std=1.0):
    return (torch.randn(size) * std).requires_grad_()


def linear1(xb):
    return xb @ weights + bias


def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets == 1, 1 - predictions, predictions).mean()


train_x = torch.rand(12, 28 * 28)
train_y = torch.randint(0, 2, (12, 1))

weights = init_params((28 * 28, 1))
bias = init_params(1)

preds = linear1(train_x)
corrects = (preds > 0.0).float() == train_y
print(corrects.float().mean().item())

# what happens to the accuracy when a weight changes a tiny bit?
weights[0] *= 1.0001
preds = linear1(train_x)
print(((preds > 0.0).float() == train_y).float().mean().item())

loss = mnist_loss(preds, train_y)
loss.backward()
print(weights.grad.shape, loss.item())
