# source: https://github.com/arthurdouillard/deepcourse/issues/11 (docs/notebooks/Autograd_Deepcourse.ipynb at c5385e7, its code cells up to "2. MLP with Autograd", with the MLP TODOs filled in from the course's own solution docs/code/backpropagation/mlp_autograd.py, which the notebook wgets and %pycats; random 8x8 digit images instead of sklearn's load_digits, mpl_stub.py standing in for matplotlib.pyplot, 3 epochs)
# scenario: running_total
# cause: numpy_on_grad_tensor
# root: cell 10 line 21
# expert: model.fit(X, Y, train=False) returns the loss tensor with its graph (no torch.no_grad()), and the loop keeps it in losses; plt.plot(epochs, losses) converts the list with numpy and fails on tensors that require grad. As the reporter's fix in the issue does, store it detached: losses.append(loss.detach())
# %%
import torch
import numpy as np
import mpl_stub as plt  # stands in for matplotlib.pyplot

torch.manual_seed(0)

# stand-in for sklearn.datasets.load_digits(): 8x8 images with pixel values 0..16 and labels 0..9
digits = {"images": torch.randint(0, 17, (600, 8, 8)).numpy(), "target": torch.randint(0, 10, (600,)).numpy()}
X = torch.tensor(digits["images"]).float()
Y = torch.tensor(digits["target"]).long()

plt.subplot(1, 3, 1)
plt.imshow(X[42], cmap="gray")
plt.title(f"Digit: {Y[42]}");

plt.subplot(1, 3, 2)
plt.imshow(X[64], cmap="gray")
plt.title(f"Digit: {Y[64]}");

plt.subplot(1, 3, 3)
plt.imshow(X[137], cmap="gray")
plt.title(f"Digit: {Y[137]}");

X = X / X.max()
print(f"Min and max value: {X.min()}, {X.max()}")

X = X.view(X.shape[0], -1)
print(f"Flatenned images shape: {X.shape}")
# %%
x = torch.tensor(4., requires_grad=True)

def f(x):
  return x ** 2

y = f(x)
print(f"x={x}, f({x})={y}")

# We ask autograd to "backward" the gradients up to the start
y.backward()

print(f"x={x}, f'({x})={x.grad}")
# %%
x = torch.tensor([1., 4., 2.], requires_grad=True)
(x ** 2).sum().backward()
print(f"Gradients: {x.grad}")

x = torch.tensor([1., 4., 2.], requires_grad=True)
(x ** 2).backward(torch.tensor([1, 1, 1]))
print(f"Gradients: {x.grad}")
# %%
n = 2
w = torch.randn(n, requires_grad=True)
b = torch.randn(1, requires_grad=True)
x = torch.randn(n)

h = torch.dot(w, x) + b
h.backward()

print(f"x is\n {x}")
print(f"grad W is\n {w.grad}")
print(f"grad b is\n {b.grad}")
# %%
n, m = 2, 3

w = torch.randn(m, n, requires_grad=True)
b = torch.randn(m, requires_grad=True)
x = torch.randn(n)

# torch.mv for "Matrix-Vector product"
h = torch.mv(w, x) + b
h.sum().backward()

print(f"x is\n {x}")
print(f"grad W is\n {w.grad}")
print(f"grad b is\n {b.grad}")
# %%
torch.outer(torch.tensor([1., 1., 1.]), x)
# %%
k, n, m = 4, 2, 3

w = torch.randn(n, m, requires_grad=True)
b = torch.randn(m, requires_grad=True)
x = torch.randn(k, n)

# torch.nmv for "Matrix-Vector product"
h = torch.mm(x, w) + b
print(f"Output shape is {h.shape}")
h.sum().backward()

print(f"x is\n {x}")
print(f"grad W is\n {w.grad}")
print(f"grad b is\n {b.grad}")
# %%
print(f"Mean of x alongside the batch dimension (first one) is\n {x.mean(dim=0)}")
print(f"Normalized w grad is\n {w.grad / k}")
print(f"Normalized b grad is\n {b.grad / k}")
# %%
from torch.nn import Parameter

def softmax(x):
    maximum_value = x.max(dim=1, keepdims=True)[0]
    e = torch.exp(x - maximum_value)
    return e / e.sum(dim=1, keepdims=True)

def cross_entropy(probs, targets):
    return -torch.sum(targets * torch.log(probs + 1e-8), dim=1)
# %%
class MLP:
    def __init__(self, input_size, hidden_size, nb_classes, learning_rate=0.01):
        self.w_hidden = Parameter(torch.randn(input_size, hidden_size).float())
        self.b_hidden = Parameter(torch.zeros(hidden_size).float())

        self.w_output = Parameter(torch.randn(hidden_size, nb_classes).float())
        self.b_output = Parameter(torch.zeros(nb_classes).float())

        self.learning_rate = learning_rate

    def forward(self, x):
        h_tilde = torch.mm(x, self.w_hidden) + self.b_hidden
        h = torch.tanh(h_tilde)
        logits = torch.mm(h, self.w_output) + self.b_output

        return logits, h_tilde, h

    def fit(self, inputs, targets, train=True):
        logits, *outputs = self.forward(inputs)
        probs = softmax(logits)
        loss = cross_entropy(probs, torch.eye(10)[targets]).sum()
        if train:
            self.backward(inputs, probs, targets, loss, *outputs)
        return loss

    def backward(self, inputs, probs, targets, loss, h_tilde, h):
        batch_size = len(probs)

        loss.backward()

        self.w_output.data = self.w_output.data - self.learning_rate * self.w_output.grad / batch_size
        self.b_output.data = self.b_output.data - self.learning_rate * self.b_output.grad / batch_size
        self.w_hidden.data = self.w_hidden.data - self.learning_rate * self.w_hidden.grad / batch_size
        self.b_hidden.data = self.b_hidden.data - self.learning_rate * self.b_hidden.grad / batch_size

    def accuracy(self, inputs, targets):
        y_pred = self.forward(inputs)[0].argmax(dim=1)
        y_true = targets

        return torch.mean((y_pred == y_true).float())
# %%
model = MLP(X.shape[1], 50, len(torch.unique(Y)), 0.1)
model.accuracy(X, Y)

batch_size = 32
nb_epochs = 3

epochs, accuracies, losses = [], [], []

for epoch in range(nb_epochs):
    for batch_index in range(0, len(X), batch_size):
        batch_X = X[batch_index:batch_index + batch_size]
        batch_Y = Y[batch_index:batch_index + batch_size]

        model.fit(batch_X, batch_Y)

    loss = model.fit(X, Y, train=False)
    acc = model.accuracy(X, Y)

    print(f"Epoch: {epoch}, loss: {loss}, accuracy: {acc}")
    epochs.append(epoch)
    losses.append(loss)
    accuracies.append(acc)

plt.subplot(1, 2, 1)
plt.plot(epochs, losses)
plt.xlabel("Epoch")
plt.ylabel("Loss")

plt.subplot(1, 2, 2)
plt.plot(epochs, accuracies)
plt.xlabel("Epoch")
plt.ylabel("accuracy");
