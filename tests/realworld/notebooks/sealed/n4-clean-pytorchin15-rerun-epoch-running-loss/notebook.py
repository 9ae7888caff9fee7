# source: https://github.com/nicknochnack/PyTorchin15/issues/4
# scenario: clean
# order: 0 1 2 2
# expert: clean: the training cell (the proposed loop) builds a fresh loss every batch and keeps only running_loss += loss.item(), a Python float reset each epoch, so re-running the cell to train for more epochs backpropagates only through new graphs
# %%
import torch
from torch import nn
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
dataset = DataLoader(TensorDataset(torch.rand(32, 1, 28, 28), torch.randint(0, 10, (32,))), batch_size=8)
# %%
class ImageClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(
            nn.Conv2d(1, 4, (3, 3)), nn.ReLU(),
            nn.Conv2d(4, 4, (3, 3)), nn.ReLU(),
            nn.Flatten(),
            nn.Linear(4 * 24 * 24, 10))

    def forward(self, x):
        return self.model(x)

clf = ImageClassifier()
opt = Adam(clf.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
# %%
for epoch in range(2):
    running_loss = 0.0
    for batch in dataset:
        X, y = batch
        yhat = clf(X)
        loss = loss_fn(yhat, y)
        running_loss += loss.item()
        # Apply backprop
        opt.zero_grad()
        loss.backward()
        opt.step()
    epoch_loss = running_loss / len(dataset)
    print(f"Epoch:{epoch} loss is {epoch_loss}")
