# %%
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset
torch.manual_seed(0)
# %%
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 8)
        self.out = nn.Linear(8, 1)
        self.lossfn = nn.MSELoss()

    def forward(self, x):
        return self.out(torch.tanh(self.hidden(x)))


net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
# %%
X = torch.randn(6, 3)
Y = X.sum(1, keepdim=True)
trainData = TensorDataset(X, Y)
# keep the predictions for a plot after training
out = torch.empty_like(trainData.tensors[1])
# %%
for i, (x, y) in enumerate(trainData):
    optimizer.zero_grad()
    pred = net(x)
    loss = net.lossfn(pred, y)
    out[i] = pred.detach()
    loss.backward()
    optimizer.step()
print(out.detach().squeeze())
