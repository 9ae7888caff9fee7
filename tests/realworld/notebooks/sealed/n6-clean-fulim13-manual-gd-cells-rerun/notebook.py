# source: https://github.com/Fulim13/Pytorch_Learn/blob/22793460a69166e9038ed0a9ccff686bdca0c9cc/04_Backpropagation.ipynb
# scenario: clean
# order: 0 1 2 3 4 2 3 4 2 3 4
# expert: nothing to fix: the forward, backward and update steps sit in three cells and are re-run by hand for the "next forward and backward pass", but each round re-runs the forward cell first, so every loss.backward() has its own fresh graph; the in-place update of the leaf w happens under torch.no_grad() and w.grad is zeroed, so repeating the three cells is safe
# %%
import torch
x = torch.tensor(1.0)
y = torch.tensor(2.0)
# %%
# This is the parameter we want to optimize -> requires_grad=True
w = torch.tensor(1.0, requires_grad=True)
w
# %%
# forward pass to compute loss
y_predicted = w * x
loss = (y_predicted - y)**2
print(loss)
# %%
# backward pass to compute gradient dLoss/dw
loss.backward()
print(w.grad) # dl/dw = 2(w*x - y) * 1 * x
# %%
# update weights
# next forward and backward pass...

# continue optimizing:
# update weights, this operation should not be part of the computational graph
with torch.no_grad():
    w -= 0.01 * w.grad
# don't forget to zero the gradients
w.grad.zero_()
