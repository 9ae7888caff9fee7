# source: variant of https://github.com/pytorch/xla/issues/1961 (run on CPU instead of a Colab TPU; the two loss steps split over two cells)
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: cell 3 line 1
# expert: both classifiers read the same generator output gen, and loss1.backward() frees the generator part of that graph, so loss2.backward() has to go through it a second time; the maintainer's answer: the only common tensor is gen, so pass gen.detach() to the second classifier (or retain the graph), since the reporter could not sum the losses
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
out2 = classifier_2(gen)
loss2 = F.cross_entropy(out2, torch.zeros(4, dtype=torch.long))
optimizer_2.zero_grad()
loss2.backward()
optimizer_2.step()
