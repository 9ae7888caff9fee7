# expert fix of earlier-teacher-net-targets
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
teacher = nn.Linear(4, 1)
X = torch.randn(256, 4)
Y = (teacher(X) + 0.01 * torch.randn(256, 1)).detach()
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
