# source: variant of https://d2l.ai/chapter_linear-regression/weight-decay.html (the from-scratch weight decay section: init_params, l2_penalty, the high-dimensional synthetic regression data and train(lambd); here the penalty term is evaluated once in the cell after init_params, to print it, and train reuses that value; plain loops instead of d2l's Animator/Trainer)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 2 line 3
# expert: penalty = lambd * l2_penalty(w) is computed once in the inspection cell and added to every minibatch loss in train, so the second minibatch's backward runs again through the penalty graph the first one freed (and the penalty would not follow w as it changes); compute the penalty inside the loop, loss(net(X), y) + lambd * l2_penalty(w), as the book does.
# %%
import torch
torch.manual_seed(0)

n_train, num_inputs, batch_size = 20, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X_train = torch.randn(n_train, num_inputs)
y_train = X_train @ true_w + true_b + torch.randn(n_train, 1) * 0.01

def data_iter(X, y, batch_size):
    for i in range(0, len(X), batch_size):
        yield X[i:i + batch_size], y[i:i + batch_size]
# %%
def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]

def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2

def linreg(X, w, b):
    return X @ w + b

def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
# %%
w, b = init_params()
lambd = 3
penalty = lambd * l2_penalty(w)
print('initial penalty:', penalty.item())
# %%
def train(lambd, num_epochs=3, lr=0.003):
    net, loss = lambda X: linreg(X, w, b), squared_loss
    for epoch in range(num_epochs):
        for X, y in data_iter(X_train, y_train, batch_size):
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
    print('L2 norm of w:', torch.norm(w).item())

train(lambd)
