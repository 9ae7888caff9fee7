import torch
import torch.nn as nn

torch.manual_seed(0)
a = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0])
fc1 = nn.Linear(3, 5)
fc2 = nn.Linear(5, 1)
loss_func = nn.MSELoss()
sgd = torch.optim.SGD(params=list(fc1.parameters()) + list(fc2.parameters()), lr=0.01)

temp = []
for i in range(10):
    h = fc1(a)
    out = fc2(h)
    temp.append(h.detach())
    if i != 0:
        out = out + temp[0].mean()
    loss = loss_func(out, t)
    sgd.zero_grad()
    loss.backward()
    sgd.step()
    print(loss.item())
