# source: https://github.com/zhirongw/lemniscate.pytorch/blob/master/lib/LinearAverage.py (LinearAverageOp/LinearAverage, Normalize of lib/normalize.py and train() of main.py with nce_k=0 and iter_size=2; a small conv encoder instead of ResNet-18 and random 3x16x16 images with their dataset indices instead of the CIFAR instance dataset)
# style: contrastive
# expert: Correct: the instance-discrimination memory bank is a buffer that the custom autograd Function only reads with x.data in forward and updates in place (index_copy_ with x.data) inside its own backward, after its saved tensors were unpacked, so the bank never carries a graph from one batch to the next; and zero_grad() only every iter_size batches is deliberate gradient accumulation, each accumulated backward running on its own fresh graph.
import math

import torch
from torch import nn
from torch.autograd import Function

torch.manual_seed(0)


class LinearAverageOp(Function):
    @staticmethod
    def forward(self, x, y, memory, params):
        T = params[0].item()
        batchSize = x.size(0)

        # inner product
        out = torch.mm(x.data, memory.t())
        out.div_(T) # batchSize * N

        self.save_for_backward(x, memory, y, params)

        return out

    @staticmethod
    def backward(self, gradOutput):
        x, memory, y, params = self.saved_tensors
        batchSize = gradOutput.size(0)
        T = params[0].item()
        momentum = params[1].item()

        # add temperature
        gradOutput.data.div_(T)

        # gradient of linear
        gradInput = torch.mm(gradOutput.data, memory)
        gradInput.resize_as_(x)

        # update the non-parametric data
        weight_pos = memory.index_select(0, y.data.view(-1)).resize_as_(x)
        weight_pos.mul_(momentum)
        weight_pos.add_(torch.mul(x.data, 1-momentum))
        w_norm = weight_pos.pow(2).sum(1, keepdim=True).pow(0.5)
        updated_weight = weight_pos.div(w_norm)
        memory.index_copy_(0, y, updated_weight)

        return gradInput, None, None, None


class LinearAverage(nn.Module):

    def __init__(self, inputSize, outputSize, T=0.07, momentum=0.5):
        super(LinearAverage, self).__init__()
        stdv = 1 / math.sqrt(inputSize)
        self.nLem = outputSize

        self.register_buffer('params', torch.tensor([T, momentum]))
        stdv = 1. / math.sqrt(inputSize/3)
        self.register_buffer('memory', torch.rand(outputSize, inputSize).mul_(2*stdv).add_(-stdv))

    def forward(self, x, y):
        out = LinearAverageOp.apply(x, y, self.memory, self.params)
        return out


class Normalize(nn.Module):

    def __init__(self, power=2):
        super(Normalize, self).__init__()
        self.power = power

    def forward(self, x):
        norm = x.pow(self.power).sum(1, keepdim=True).pow(1./self.power)
        out = x.div(norm)
        return out


class AverageMeter(object):
    """Computes and stores the average and current value"""
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


class Args:
    low_dim = 16
    nce_t = 0.1
    nce_m = 0.5
    iter_size = 2
    print_freq = 2
    lr = 0.03


args = Args()


def train(train_loader, model, lemniscate, criterion, optimizer, epoch):
    losses = AverageMeter()

    # switch to train mode
    model.train()

    optimizer.zero_grad()
    for i, (input, _, index) in enumerate(train_loader):
        # compute output
        feature = model(input)
        output = lemniscate(feature, index)
        loss = criterion(output, index) / args.iter_size

        loss.backward()

        # measure accuracy and record loss
        losses.update(loss.item() * args.iter_size, input.size(0))

        if (i+1) % args.iter_size == 0:
            # compute gradient and do SGD step
            optimizer.step()
            optimizer.zero_grad()

        if i % args.print_freq == 0:
            print('Epoch: [{0}][{1}/{2}]\t'
                  'Loss {loss.val:.4f} ({loss.avg:.4f})\t'.format(
                   epoch, i, len(train_loader), loss=losses))


ndata = 32
images = torch.rand(ndata, 3, 16, 16)
train_loader = [(images[i:i + 8], torch.zeros(8, dtype=torch.long), torch.arange(i, i + 8))
                for i in range(0, ndata, 8)]

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(32, args.low_dim), Normalize(2))
lemniscate = LinearAverage(args.low_dim, ndata, args.nce_t, args.nce_m)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9, weight_decay=5e-4)

for epoch in range(2):
    train(train_loader, model, lemniscate, criterion, optimizer, epoch)
print('memory requires grad:', lemniscate.memory.requires_grad)
