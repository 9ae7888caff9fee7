# source: variant of https://whosebug.com/question/4249326/Pytorch-why-does-preallocating-memory-cause-trying-to-backward-through-the-graph-a-second-time (the training method split into cells; the preallocated output buffer lives in the data cell)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 2 line 5
# expert: the preallocated out tensor collects every step's network output in place (out[i] = ...), so after the first step it carries the graph of all earlier steps and each loss.backward() walks back into a step whose graph was already freed; as the answer explains, every iteration must get its own graph: compute the prediction as a fresh tensor for the loss and store only a detached copy in the buffer
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
    out[i] = net(x)
    loss = net.lossfn(out[i], y)
    loss.backward()
    optimizer.step()
print(out.detach().squeeze())
