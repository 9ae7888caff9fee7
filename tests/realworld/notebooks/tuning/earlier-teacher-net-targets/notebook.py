# source: https://github.com/zhangyu2234/Deep-learning-by-hand/blob/main/Chapter%201-Let%E2%80%99s%20start%20with%20the%20simplest%20full%20connection/1.3%20Problems%20I%20encountered.ipynb (variant: the synthetic targets come from a teacher nn.Linear, and a student MLP is trained with an optimizer)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 0 line 6
# expert: the targets are produced once by the teacher network with grad tracking (its weights require grad), so each minibatch loss backpropagates into the teacher's freed graph; create the targets detached / under torch.no_grad()
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
teacher = nn.Linear(4, 1)
X = torch.randn(256, 4)
Y = teacher(X) + 0.01 * torch.randn(256, 1)
# %%
student = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(student.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
# %%
for epoch in range(3):
    perm = torch.randperm(len(X))
    for i in range(0, len(X), 32):
        idx = perm[i:i + 32]
        loss = loss_fn(student(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
