# source: https://github.com/pytorch/tutorials/pull/3717 (beginner_source/nn_tutorial.py, "What is torch.nn really?", the from-scratch part the PR explains: weights initialised with Xavier scaling and only then made to require grad so they stay leaves, the model/nll/accuracy cells, a first prediction on one batch, and the manual SGD training cell run twice; random 784-pixel images with 10 classes instead of MNIST)
# scenario: clean
# order: 0 1 2 3 4 4
# expert: nothing to fix: weights.requires_grad_() comes after the division, so weights is a leaf whose .grad is filled; the update under torch.no_grad() and grad.zero_() keep it a leaf, and every run of the training cell builds a new graph from model(xb)
# %%
import math
import torch

torch.manual_seed(0)
n, c = 512, 784
x_train = torch.rand(n, c)
y_train = torch.randint(0, 10, (n,))
# %%
weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)
# %%
bs = 64  # batch size

xb = x_train[0:bs]  # a mini-batch from x
preds = model(xb)  # predictions
preds[0], preds.shape
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll

yb = y_train[0:bs]
print(loss_func(preds, yb))
# %%
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))
# %%
lr = 0.5  # learning rate
epochs = 2  # how many epochs to train for

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        #         set_trace()
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()

print(loss_func(model(xb), yb), accuracy(model(xb), yb))
