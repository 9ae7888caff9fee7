# source: variant of https://github.com/arthurdouillard/deepcourse/issues/11 (docs/notebooks/Autograd_Deepcourse.ipynb at c5385e7, its data cell and the "3. MLP with torch.nn" cell, the other of the two code blocks the issue reports, with the loss history stored as a number (losses.append(loss.item())) so the plot works, and the training cell run twice as a student re-running it does; random 8x8 digit images instead of sklearn's load_digits, mpl_stub.py standing in for matplotlib.pyplot, 3 epochs)
# scenario: clean
# order: 0 1 1
# expert: nothing to fix: each run of the training cell builds a new model, optimizer and lists, every backward is on the batch's own fresh loss, and losses holds plain floats, so plotting it converts no tensor that requires grad.
# %%
import torch
import numpy as np
import mpl_stub as plt  # stands in for matplotlib.pyplot

torch.manual_seed(0)

# stand-in for sklearn.datasets.load_digits(): 8x8 images with pixel values 0..16 and labels 0..9
digits = {"images": torch.randint(0, 17, (600, 8, 8)).numpy(), "target": torch.randint(0, 10, (600,)).numpy()}
X = torch.tensor(digits["images"]).float()
Y = torch.tensor(digits["target"]).long()

X = X / X.max()
print(f"Min and max value: {X.min()}, {X.max()}")

X = X.view(X.shape[0], -1)
print(f"Flatenned images shape: {X.shape}")
# %%
from torch import nn
from torch.nn import functional as F


class MLP(nn.Module):
  def __init__(self, input_size, hidden_size, nb_classes):
    super().__init__()  # Important! torch initializes a bunch of stuff with this line
    self.fc1 = nn.Linear(input_size, hidden_size, bias=True)
    self.fc2 = nn.Linear(hidden_size, nb_classes, bias=True)

  def forward(self, x):
    h = torch.tanh(self.fc1(x))
    return self.fc2(h)


def compute_accuracy(y_pred, y_true):
  return torch.mean((y_pred == y_true).float())


torch.manual_seed(1)
model = MLP(X.shape[1], 50, len(torch.unique(Y)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

batch_size = 32
nb_epochs = 3

epochs, accuracies, losses = [], [], []

model.train()

for epoch in range(nb_epochs):
    for batch_index in range(0, len(X), batch_size):
        batch_X = X[batch_index:batch_index + batch_size]
        batch_Y = Y[batch_index:batch_index + batch_size]

        optimizer.zero_grad()
        logits = model(batch_X)
        loss = F.cross_entropy(logits, batch_Y)  # Does implicitely softmax+CE
        loss.backward()
        optimizer.step()


    model.eval()
    logits = model(X)
    loss = F.cross_entropy(logits, Y)
    acc = compute_accuracy(logits.argmax(dim=1), Y)
    model.train()

    print(f"Epoch: {epoch}, loss: {loss}, accuracy: {acc}")
    epochs.append(epoch)
    losses.append(loss.item())
    accuracies.append(acc)

plt.subplot(1, 2, 1)
plt.plot(epochs, losses)
plt.xlabel("Epoch")
plt.ylabel("Loss")

plt.subplot(1, 2, 2)
plt.plot(epochs, accuracies)
plt.xlabel("Epoch")
plt.ylabel("accuracy");
