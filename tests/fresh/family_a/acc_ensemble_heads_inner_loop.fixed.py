import torch
import torch.nn as nn

torch.manual_seed(0)
ensemble = nn.ModuleList([nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3)) for _ in range(3)])
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(ensemble.parameters(), lr=0.1)
inputs = torch.randn(10, 6)
target_var = torch.randint(0, 3, (10,))

for step in range(3):
    optimizer.zero_grad()
    output = [m(inputs) for m in ensemble]
    loss = 0
    for j in range(len(output)):
        loss += criterion(output[j], target_var)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
