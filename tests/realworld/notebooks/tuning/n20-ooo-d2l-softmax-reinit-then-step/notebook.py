# source: variant of https://d2l.ai/chapter_linear-classification/softmax-regression-scratch.html (softmax, the scratch model net(X) with W and b, cross_entropy and the minibatch SGD update, split into a parameter cell, a forward/loss cell and an update cell; random 28x28 images with 10 classes instead of Fashion-MNIST)
# scenario: out_of_order
# cause: double_backward
# order: 0 1 2 3 1 3
# root: cell 2 line 2
# expert: To restart training the parameter cell was re-run and then the update cell, skipping the forward/loss cell, so l.sum().backward() runs again on the loss the previous update already backpropagated (and which belongs to the old W, b); re-run the forward/loss cell after re-initialising the parameters, or keep forward, loss and update in one training cell.
# %%
import torch
torch.manual_seed(0)
num_inputs, num_outputs, batch_size, lr = 784, 10, 32, 0.1
X = torch.rand(batch_size, 1, 28, 28)
y = torch.randint(0, num_outputs, (batch_size,))

def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here

def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y])
# %%
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)
# %%
y_hat = net(X)
l = cross_entropy(y_hat, y)
# %%
l.sum().backward()
with torch.no_grad():
    for param in [W, b]:
        param -= lr * param.grad / batch_size
        param.grad.zero_()
print(l.mean().item())
