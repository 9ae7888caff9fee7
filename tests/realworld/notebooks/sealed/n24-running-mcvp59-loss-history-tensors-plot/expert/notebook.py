# source: https://github.com/PacktPublishing/Modern-Computer-Vision-with-PyTorch/issues/59 (Chapter02/Building_a_neural_network_using_PyTorch_on_a_toy_dataset.ipynb as it was before commit 308d71e: the training loop stores loss_history.append(loss_value), and the plotting cell raises; the thread and the commit settled on loss_history.append(loss_value.item()). The notebook's cells as in the repository, with torch.manual_seed(0) added, a stub for matplotlib.pyplot and without the %matplotlib inline magic)
# scenario: running_total
# cause: numpy_on_grad_tensor
# root: cell 9 line 7
# expert: loss_history collects the loss tensors themselves, each still attached to its graph and requiring grad; plt.plot converts the list to a numpy array, which calls .numpy() on tensors that require grad and fails. As the repository's fix (and the thread) does, store the scalar: loss_history.append(loss_value.item())
# %%
import torch
torch.manual_seed(0)
x = [[1,2],[3,4],[5,6],[7,8]]
y = [[3],[7],[11],[15]]
# %%
X = torch.tensor(x).float()
Y = torch.tensor(y).float()
# %%
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = X.to(device)
Y = Y.to(device)
# %%
import torch.nn as nn
# %%
class MyNeuralNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_to_hidden_layer = nn.Linear(2,8)
        self.hidden_layer_activation = nn.ReLU()
        self.hidden_to_output_layer = nn.Linear(8,1)
    def forward(self, x):
        x = self.input_to_hidden_layer(x)
        x = self.hidden_layer_activation(x)
        x = self.hidden_to_output_layer(x)
        return x
# %%
mynet = MyNeuralNet().to(device)
# %%
loss_func = nn.MSELoss()
# %%
_Y = mynet(X)
loss_value = loss_func(_Y,Y)
print(loss_value)
# %%
from torch.optim import SGD
opt = SGD(mynet.parameters(), lr = 0.001)
# %%
loss_history = []
for _ in range(50):
    opt.zero_grad()
    loss_value = loss_func(mynet(X),Y)
    loss_value.backward()
    opt.step()
    loss_history.append(loss_value.item())
# %%
import _stub_pyplot as plt  # stands in for matplotlib.pyplot
plt.plot(loss_history)
plt.title('Loss variation over increasing epochs')
plt.xlabel('epochs')
plt.ylabel('loss value')
