# source: variant of https://github.com/fastai/course-v3/blob/master/nbs/dl2/03_minibatch_training.ipynb (the Model class, the cell that evaluates loss = loss_func(model(xb), yb) on the first minibatch, and the basic training loop that follows it; here the training loop's backward uses that earlier cell's loss instead of recomputing it; random 784-pixel data instead of MNIST)
# scenario: earlier_cell
# cause: double_backward
# root: cell 2 line 2
# expert: The training loop calls loss.backward() on the `loss` left by the cell that evaluated the first minibatch, never recomputing it, so the second iteration backpropagates the same, already freed, graph (and the model never trains on the other batches); compute loss = loss_func(model(xb), yb) inside the loop before loss.backward(), as the notebook's loop does.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x_train = torch.randn(256, 784)
y_train = torch.randint(0, 10, (256,))
n, m = x_train.shape
c = int(y_train.max()) + 1
nh = 50

class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = [nn.Linear(n_in, nh), nn.ReLU(), nn.Linear(nh, n_out)]
        for i, l in enumerate(self.layers):
            self.add_module(f'layer_{i}', l)

    def __call__(self, x):
        for l in self.layers:
            x = l(x)
        return x

model = Model(m, nh, 10)
loss_func = F.cross_entropy
def accuracy(out, yb): return (torch.argmax(out, dim=1) == yb).float().mean()
# %%
bs = 64                  # batch size
xb = x_train[0:bs]       # a mini-batch from x
preds = model(xb)        # predictions
preds[0], preds.shape
# %%
yb = y_train[0:bs]
loss = loss_func(preds, yb)
loss, accuracy(preds, yb)
# %%
lr = 0.5    # learning rate
epochs = 1  # how many epochs to train for
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        loss.backward()
        with torch.no_grad():
            for l in model.layers:
                if hasattr(l, 'weight'):
                    l.weight -= l.weight.grad * lr
                    l.bias -= l.bias.grad * lr
                    l.weight.grad.zero_()
                    l.bias.grad.zero_()
loss_func(model(xb), yb), accuracy(model(xb), yb)
