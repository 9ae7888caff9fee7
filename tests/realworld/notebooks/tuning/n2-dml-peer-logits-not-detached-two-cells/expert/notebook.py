# expert fix of n2-dml-peer-logits-not-detached-two-cells
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
kl_loss = criterion_KLD(F.log_softmax(outputs[i], dim=1), F.softmax(outputs[1].detach(), dim=1))
loss = ce_loss + kl_loss / (model_num - 1)
optimizers[i].zero_grad()
loss.backward()
optimizers[i].step()
print(i, loss.item())
# %%
# update network 1
i = 1
ce_loss = criterion_CE(outputs[i], labels)
kl_loss = criterion_KLD(F.log_softmax(outputs[i], dim=1), F.softmax(outputs[0].detach(), dim=1))
loss = ce_loss + kl_loss / (model_num - 1)
optimizers[i].zero_grad()
loss.backward()
optimizers[i].step()
print(i, loss.item())
