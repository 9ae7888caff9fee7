# source: variant of https://github.com/CIS-522/course-content/commit/1aa7ce438f40e8de279633f9d99a99210a02fb84 (W4D2 student notebook; the calculate_frobenius_norm exercise filled in by summing torch.sum(param ** 2) over named_parameters, smaller Net and fewer epochs, the matplotlib plot replaced by the numpy conversion it does)
# scenario: running_total
# cause: numpy_on_grad_tensor
# root: cell 1 line 14
# expert: calculate_frobenius_norm adds up torch.sum(param ** 2) over the parameters, so its total is a tensor attached to the weights' graph; the training cell appends it to model_norm every epoch and the plot cell then hands a list of grad-requiring tensors to matplotlib, which calls numpy() on them. The course fix (commit 1aa7ce4) detaches the stored norms before plotting: model_norm = [n.detach() if isinstance(n, torch.Tensor) else n for n in model_norm].
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import numpy as np
from tqdm import tqdm

torch.manual_seed(0)
# %%
def calculate_frobenius_norm(model: nn.Module) -> float:
    """
    Calculates the Frobenius norm of all the weights in a model

    Arguments:
        model: PyTorch model

    Returns:
        float: Frobenius norm of all weights in the model

    """
    norm = 0.0
    for name, param in model.named_parameters():
        norm += torch.sum(param ** 2)
    norm = norm ** 0.5
    return norm


net = nn.Linear(10, 1)
print(f"Frobenius Norm of Single Linear Layer: {calculate_frobenius_norm(net)}")
# %%
# creating train data
X = torch.rand((10, 1))
X.sort(dim=0)

# adding small error in the data
Y = 2 * X + 2 * torch.empty((X.shape[0], 1)).normal_(mean=0, std=1)

X = X.unsqueeze_(1)
Y = Y.unsqueeze_(1)

# creating test dataset
X_test = torch.linspace(0, 1, 40)
X_test = X_test.reshape((40, 1, 1))
# %%
class Net(nn.Module):
    """
    A simple network with leaky relu activation
    """

    def __init__(self):
        """
        Initializes the network
        """
        super(Net, self).__init__()
        self.fc1 = nn.Linear(1, 30)
        self.fc2 = nn.Linear(30, 50)
        self.fc3 = nn.Linear(50, 1)

    def forward(self, x):
        """
        Forward pass of the network
        """
        x = F.leaky_relu(self.fc1(x))
        x = F.leaky_relu(self.fc2(x))
        output = self.fc3(x)
        return output
# %%
# train the network on toy dataset
model = Net()
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
max_epochs = 100
iters = 0

running_predictions = np.empty((40, (int)(max_epochs / 50 + 1)))

train_loss = []
test_loss = []
model_norm = []

for epoch in tqdm(range(max_epochs), disable=True):

    # training
    model_norm.append(calculate_frobenius_norm(model))
    model.train()
    optimizer.zero_grad()
    predictions = model(X)
    loss = criterion(predictions, Y)
    loss.backward()
    optimizer.step()

    train_loss.append(loss.data)
    model.eval()
    Y_test = model(X_test)
    loss = criterion(Y_test, 2 * X_test)
    test_loss.append(loss.data)

    if epoch % 50 == 0 or epoch == max_epochs - 1:
        running_predictions[:, iters] = Y_test[:, 0, 0].detach().numpy()
        iters += 1
# %%
# @title Frobenious norm of the model
# plt.plot(model_norm): matplotlib converts the list with numpy; printed here instead of drawn
norm_curve = np.asarray(model_norm, dtype=float)
print("norm of the model", norm_curve[::20].round(3))
print("train loss", np.asarray(train_loss, dtype=float)[::20].round(4))
