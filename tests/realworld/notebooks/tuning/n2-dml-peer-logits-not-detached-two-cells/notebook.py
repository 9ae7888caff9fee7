# source: https://github.com/chxy95/Deep-Mutual-Learning/issues/5
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: cell 2 line 4
# expert: each network's KL term uses the other network's output with its graph attached, so updating network 0 frees the graph of outputs[1] that network 1's update needs; detach the peer output (teacher_out.detach()) in every KL term
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model_num = 2
models = [nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 10))
          for _ in range(model_num)]
optimizers = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4) for m in models]
criterion_CE = nn.CrossEntropyLoss()
criterion_KLD = nn.KLDivLoss(reduction='batchmean')
images = torch.randn(8, 3, 8, 8)
labels = torch.randint(0, 10, (8,))
# %%
# forward every network of the cohort
outputs = []
for model in models:
    model.train()
    outputs.append(model(images))
# %%
# update network 0
i = 0
ce_loss = criterion_CE(outputs[i], labels)
kl_loss = criterion_KLD(F.log_softmax(outputs[i], dim=1), F.softmax(outputs[1], dim=1))
loss = ce_loss + kl_loss / (model_num - 1)
optimizers[i].zero_grad()
loss.backward()
optimizers[i].step()
print(i, loss.item())
# %%
# update network 1
i = 1
ce_loss = criterion_CE(outputs[i], labels)
kl_loss = criterion_KLD(F.log_softmax(outputs[i], dim=1), F.softmax(outputs[0], dim=1))
loss = ce_loss + kl_loss / (model_num - 1)
optimizers[i].zero_grad()
loss.backward()
optimizers[i].step()
print(i, loss.item())
