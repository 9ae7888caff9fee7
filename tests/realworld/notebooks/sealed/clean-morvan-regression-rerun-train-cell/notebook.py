# source: https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents-notebooks/301_regression.ipynb
# scenario: clean
# order: 0 1 2 3 4 4
# expert: none needed: the training cell recomputes the prediction and loss every iteration, so re-running it builds fresh graphs
# %%
import torch
import torch.nn.functional as F
torch.manual_seed(0)    # reproducible
# %%
x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)  # x data (tensor), shape=(100, 1)
y = x.pow(2) + 0.2 * torch.rand(x.size())                 # noisy y data (tensor), shape=(100, 1)
# %%
class Net(torch.nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(Net, self).__init__()
        self.hidden = torch.nn.Linear(n_feature, n_hidden)   # hidden layer
        self.predict = torch.nn.Linear(n_hidden, n_output)   # output layer

    def forward(self, x):
        x = F.relu(self.hidden(x))
        x = self.predict(x)
        return x
# %%
net = Net(n_feature=1, n_hidden=10, n_output=1)
optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = torch.nn.MSELoss()
# %%
for t in range(20):
    prediction = net(x)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print('Loss=%.4f' % loss.item())
