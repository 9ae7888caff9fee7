# source: variant of https://github.com/pytorch/pytorch/issues/7714
# style: vision
# cause: shared_subgraph_multiple_backward
# line: 35
# expert: the gradient-penalty term is built on the graph of loss_c (create_graph=True), so backpropagate once through the sum: (loss_c + loss_g).backward()
import time

import torch
from torch import nn, autograd

torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1, stride=2), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
opt = torch.optim.SGD(net.parameters(), 0.01, momentum=0.9, weight_decay=1e-4)
batchsize = 16

GP = True
start = time.time()

for i in range(5):
    x = torch.rand((batchsize, 3, 16, 16))
    y = torch.randint(0, 10, (batchsize,)).long()
    x.requires_grad_(True)
    opt.zero_grad()
    preds = net(x)
    loss_c = nn.CrossEntropyLoss()(preds, y)

    if GP:
        grad = autograd.grad(loss_c, x, create_graph=True,
                             only_inputs=True)[0]
        loss_g = (grad ** 2).mean() * batchsize
        (loss_c + loss_g).backward()
    else:
        loss_c.backward()
    opt.step()

end = time.time()
print("{:.3f}s for each step".format((end - start) / 5))
