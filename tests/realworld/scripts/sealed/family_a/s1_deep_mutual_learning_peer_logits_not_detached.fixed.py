# source: https://github.com/chxy95/Deep-Mutual-Learning/issues/5
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model_num = 2
models = [nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5)) for _ in range(model_num)]
optimizers = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in models]
loss_ce = nn.CrossEntropyLoss()
loss_kl = nn.KLDivLoss(reduction='batchmean')
train_loader = [(torch.randn(8, 10), torch.randint(0, 5, (8,))) for _ in range(3)]

for epoch in range(2):
    for images, labels in train_loader:
        outputs = []
        for model in models:
            outputs.append(model(images))
        for i in range(model_num):
            ce_loss = loss_ce(outputs[i], labels)
            kl_loss = 0
            for j in range(model_num):
                if i != j:
                    kl_loss += loss_kl(F.log_softmax(outputs[i], dim=1), F.softmax(outputs[j].detach(), dim=1))
            loss = ce_loss + kl_loss / (model_num - 1)
            optimizers[i].zero_grad()
            loss.backward()
            optimizers[i].step()
    print(epoch, loss.item())
