import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net1 = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
net2 = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt1 = torch.optim.SGD(net1.parameters(), lr=0.05, momentum=0.9)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.05, momentum=0.9)


def kl(p_logits, q_logits):
    return F.kl_div(F.log_softmax(p_logits, 1), F.softmax(q_logits, 1), reduction="batchmean")


for step in range(3):
    x = torch.randn(16, 10)
    y = torch.randint(0, 4, (16,))
    logits1, logits2 = net1(x), net2(x)

    # each peer is a fixed target for the other (deep mutual learning)
    loss1 = F.cross_entropy(logits1, y) + kl(logits1, logits2.detach())
    opt1.zero_grad()
    loss1.backward()
    opt1.step()

    loss2 = F.cross_entropy(logits2, y) + kl(logits2, logits1.detach())
    opt2.zero_grad()
    loss2.backward()
    opt2.step()
    print(step, loss1.item(), loss2.item())
