# source: https://github.com/DeepReinforcementLearning/DeepReinforcementLearningInAction/issues/42 (the Appendix A.4 code posted in the issue, with random 28x28 uint8 images and labels instead of torchvision MNIST, 30 epochs instead of 2500, and mpl_stub.py standing in for matplotlib.pyplot)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: cell 1 line 13
# expert: the training loop stores every loss tensor itself (losses.append(loss)), so the list keeps graph-attached tensors that require grad and plt.plot(losses) in the next cell fails when matplotlib converts them with numpy; store a plain number (losses.append(loss.item())) so the plotted history holds no autograd state.
# %%
import torch
import numpy as np
import mpl_stub as plt  # stands in for matplotlib.pyplot
torch.manual_seed(0)
np.random.seed(0)

def nn(x, w1, w2):
    l1 = x @ w1
    l1 = torch.relu(l1)
    l2 = l1 @ w2
    return l2

w1 = torch.randn(784, 200, requires_grad=True)
w2 = torch.randn(200, 10, requires_grad=True)

# stands in for TV.datasets.MNIST("MNIST", train=True): train_data / train_labels
train_data = torch.randint(0, 256, (512, 28, 28), dtype=torch.uint8)
train_labels = torch.randint(0, 10, (512,))
# %%
lr = 0.0001
epochs = 30
batch_size = 100
losses = []
lossfn = torch.nn.CrossEntropyLoss()
for i in range(epochs):
    rid = np.random.randint(0, train_data.shape[0], size=batch_size)
    x = train_data[rid].float().flatten(start_dim=1)
    x /= x.max()
    pred = nn(x, w1, w2)
    target = train_labels[rid]
    loss = lossfn(pred, target)
    losses.append(loss)
    loss.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
# %%
plt.figure(figsize=(10, 7))
plt.xlabel("Training Time", fontsize=22)
plt.ylabel("Loss", fontsize=22)
plt.plot(losses)
plt.show()
