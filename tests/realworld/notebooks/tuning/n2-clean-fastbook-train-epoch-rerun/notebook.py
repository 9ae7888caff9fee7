# source: https://github.com/fastai/fastbook/blob/master/04_mnist_basics.ipynb
# scenario: clean
# order: 0 1 2 3 4 5 5
# expert: none needed: calc_grad builds a new loss for every batch, train_epoch updates p.data and zeroes the grads, so re-running the training cell is fine
# %%
import torch
torch.manual_seed(42)
# stand-ins for the 3s/7s tensors of MNIST_SAMPLE
train_x = torch.rand(256, 28*28); train_y = (train_x[:, :392].mean(1, keepdim=True) > 0.5).float()
valid_x = torch.rand(64, 28*28); valid_y = (valid_x[:, :392].mean(1, keepdim=True) > 0.5).float()
dl = [(train_x[i:i+64], train_y[i:i+64]) for i in range(0, 256, 64)]
valid_dl = [(valid_x[i:i+32], valid_y[i:i+32]) for i in range(0, 64, 32)]
# %%
def init_params(size, std=1.0): return (torch.randn(size)*std).requires_grad_()
def linear1(xb): return xb@weights + bias
# %%
def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets==1, 1-predictions, predictions).mean()

def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds>0.5) == yb
    return correct.float().mean()
# %%
def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()

def train_epoch(model, lr, params):
    for xb,yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad*lr
            p.grad.zero_()

def validate_epoch(model):
    accs = [batch_accuracy(model(xb), yb) for xb,yb in valid_dl]
    return round(torch.stack(accs).mean().item(), 4)
# %%
weights = init_params((28*28,1))
bias = init_params(1)
lr = 1.
params = weights,bias
train_epoch(linear1, lr, params)
validate_epoch(linear1)
# %%
for i in range(20):
    train_epoch(linear1, lr, params)
    print(validate_epoch(linear1), end=' ')
