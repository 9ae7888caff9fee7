# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
generator = nn.Linear(1, 10)       # dummy generator
classifier_1 = nn.Linear(10, 1)    # dummy classifier 1
classifier_2 = nn.Linear(10, 2)    # dummy classifier 2
optimizer_1 = torch.optim.SGD(list(generator.parameters()) + list(classifier_1.parameters()), lr=0.01)
optimizer_2 = torch.optim.SGD(classifier_2.parameters(), lr=0.01)
loader = torch.utils.data.DataLoader(list(np.arange(8, dtype=np.float32)), batch_size=4, drop_last=True)
data = next(iter(loader)).unsqueeze(1)
# %%
gen = generator(data)
out1 = classifier_1(gen)
loss1 = F.mse_loss(out1, torch.ones_like(out1))
optimizer_1.zero_grad()
loss1.backward()
optimizer_1.step()
# %%
out2 = classifier_2(gen.detach())
loss2 = F.cross_entropy(out2, torch.zeros(4, dtype=torch.long))
optimizer_2.zero_grad()
loss2.backward()
optimizer_2.step()
