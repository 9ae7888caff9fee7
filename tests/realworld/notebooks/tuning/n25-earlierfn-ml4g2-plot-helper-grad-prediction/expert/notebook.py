# source: https://github.com/EffiSciencesResearch/ML4G-2.0/pull/2 ("Fix minor bug Pytorch Tutorial that prevented plotting Tensors with grad"; the maintainers' fix is commit 611d6fd "fix pytorch tuto", plot(predicted_y, true_y, x) -> plot(predicted_y.detach(), true_y, x)). workshops/pytorch_tuto/pytorch_tuto.ipynb as it was before that commit: the plot helper cell, the "PyTorch: Tensors" exercise and the "PyTorch: Tensors and autograd" exercise, with their `...` blanks filled in from the notebook's own <details> solutions; the numpy exercise is left out; mpl_stub.py stands in for matplotlib.pyplot and a torch.manual_seed(0) is added
# scenario: earlier_function
# cause: numpy_on_grad_tensor
# root: cell 2 line 58
# expert: In the autograd exercise predicted_y is computed from a, b, c, d, which require grad, so it carries a graph; the plot helper defined in the first cell hands it to matplotlib, which converts it with numpy and fails. The maintainers' fix (commit 611d6fd) plots a detached copy: plot(predicted_y.detach(), true_y, x).
# %%
import mpl_stub as plt  # stands in for matplotlib.pyplot
import torch
torch.manual_seed(0)


def plot(predicted_y, true_y, x):
    """Plot the predictions and the actual data points"""
    plt.plot(x, true_y, label="y (actual)")
    plt.plot(x, predicted_y, label="y_pred (predicted)")
    plt.xlabel("x")
    plt.ylabel("y")
    plt.legend()
    plt.show()
# %%
import torch


# Create input and target tensors
x = torch.linspace(-torch.pi, torch.pi, 1000)
true_y = torch.sin(x)

# Randomly initialize weights
a = torch.randn(())
b = torch.randn(())
c = torch.randn(())
d = torch.randn(())

learning_rate = 1e-3
epochs = 2000
for t in range(epochs):
    # Forward pass: compute predicted y
    predicted_y = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss
    loss = (predicted_y - true_y).pow(2).mean()
    if t % 100 == 99:
        print(t, loss)

    # Backprop to compute gradients of a, b, c, d with respect to loss
    grad_predicted_y = 2.0 * (predicted_y - true_y)
    grad_a = grad_predicted_y.mean()
    grad_b = (grad_predicted_y * x).mean()
    grad_c = (grad_predicted_y * x ** 2).mean()
    grad_d = (grad_predicted_y * x ** 3).mean()

    # Update weights using gradient descent
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d


print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")

# Check with the plot!
plot(predicted_y, true_y, x)
# %%
# Here You must use AUTOGRAD, ie, no need to calculate by hand the gradient.
import torch

# Create Tensors to hold input and outputs.
# By default, requires_grad=False, which indicates that we do not need to
# compute gradients with respect to these Tensors during the backward pass.
x = torch.linspace(-torch.pi, torch.pi, 1000)
true_y = torch.sin(x)

# Create random Tensors for weights. For a third order polynomial, we need
# 4 weights: y = a + b x + c x^2 + d x^3
# Setting requires_grad=True indicates that we want to compute gradients with
# respect to these Tensors during the backward pass.
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)

learning_rate = 1e-3
epochs = 2000
for t in range(epochs):
    # Forward pass: compute predicted y using operations on Tensors. (same as above)
    predicted_y = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss using operations on Tensors.
    # Now loss is a Tensor of shape (1,)
    # loss.item() gets the scalar value held in the loss.
    loss = (predicted_y - true_y).pow(2).mean()
    if t % 100 == 99:
        print(t, loss.item())

    # Use autograd to compute the backward pass. This call will compute the
    # gradient of loss with respect to all Tensors with requires_grad=True.
    # After this call a.grad, b.grad. c.grad and d.grad will be Tensors holding
    # the gradient of the loss with respect to a, b, c, d respectively.
    # Hint: using autograd is as simple as calling .backward() on the correct variable.
    loss.backward()

    # Manually update weights using gradient descent. Wrap in torch.no_grad()
    # because weights have requires_grad=True, but we don't need to track this
    # in autograd.
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad

        # Manually zero the gradients after updating weights
        # You can assign None or torch.zeros_like(a)
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")

# Check with the plot!
plot(predicted_y.detach(), true_y, x)
