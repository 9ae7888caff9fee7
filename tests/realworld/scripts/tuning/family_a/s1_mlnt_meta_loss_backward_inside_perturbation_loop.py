# source: https://github.com/LiJunnan1992/MLNT/issues/8
# style: meta
# cause: computed_before_loop
# line: 51
# expert: outputs = net(inputs) is computed once per batch and every synthetic-noise iteration differentiates fast_loss through it; calling the consistency backward inside the num_fast loop frees that graph. Accumulate consistent_loss over the perturbations and call meta_loss.backward() once after the loop, as MLNT's main.py does (retain_graph=True on the in-loop backward only hides it)
import math
import random
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

random.seed(123)
torch.manual_seed(123)


class Net(nn.Module):
    def __init__(self, d=12, h=16, c=4):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc = nn.Linear(h, c)

    def forward(self, x, weights=None, get_feat=False):
        if weights is None:
            feat = F.relu(self.fc1(x))
            out = self.fc(feat)
        else:
            feat = F.relu(F.linear(x, weights['fc1.weight'], weights['fc1.bias']))
            out = F.linear(feat, weights['fc.weight'], weights['fc.bias'])
        return (out, feat) if get_feat else out


class Args:
    lr, meta_lr, num_fast, perturb_ratio, alpha, eps = 0.0008, 0.02, 3, 0.5, 1, 0.99


args = Args()
net, tch_net, pretrain_net = Net(), Net(), Net()
for param in tch_net.parameters():
    param.requires_grad = False
for param in pretrain_net.parameters():
    param.requires_grad = False
criterion = nn.CrossEntropyLoss()
consistent_criterion = nn.KLDivLoss(reduction='batchmean')
optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-3)
train_loader = [(torch.randn(8, 12), torch.randint(0, 4, (8,))) for _ in range(2)]

for batch_idx, (inputs, targets) in enumerate(train_loader):
    optimizer.zero_grad()
    outputs = net(inputs)
    class_loss = criterion(outputs, targets)
    class_loss.backward(retain_graph=True)

    for param, param_tch in zip(net.parameters(), tch_net.parameters()):
        param_tch.data.mul_(args.eps).add_((1 - args.eps) * param.data)
    _, feats = pretrain_net(inputs, get_feat=True)
    tch_outputs = tch_net(inputs, get_feat=False)
    p_tch = F.softmax(tch_outputs, dim=1).detach()

    for i in range(args.num_fast):
        targets_fast = targets.clone()
        randidx = torch.randperm(targets.size(0))
        for n in range(int(targets.size(0) * args.perturb_ratio)):
            num_neighbor = 3
            idx = randidx[n]
            feat = feats[idx].detach()
            dist = torch.sum((feat - feats) ** 2, dim=1)
            _, neighbor = torch.topk(dist.data, num_neighbor + 1, largest=False)
            targets_fast[idx] = targets[neighbor[random.randint(1, num_neighbor)]]

        fast_loss = criterion(outputs, targets_fast)
        grads = torch.autograd.grad(fast_loss, net.parameters(), create_graph=True, retain_graph=True, only_inputs=True)
        fast_weights = OrderedDict((name, param - args.meta_lr * grad) for ((name, param), grad) in zip(net.named_parameters(), grads))
        fast_out = net.forward(inputs, fast_weights)
        logp_fast = F.log_softmax(fast_out, dim=1)
        consistent_loss = consistent_criterion(logp_fast, p_tch)
        meta_loss = consistent_loss * args.alpha / args.num_fast
        meta_loss.backward()

    optimizer.step()
    print(batch_idx, class_loss.item())
