# source: https://github.com/davda54/sam/issues/45
# scenario: earlier_function
# cause: shared_subgraph_multiple_backward
# root: cell 2 line 16
# expert: the second SAM pass reuses `output` from the first forward, whose graph loss.backward() already freed (and first_step moved the weights); do a full second forward pass: criterion(model(images), target).backward()
# %%
import io
import torch
import torch.nn as nn
from sam import SAM
torch.manual_seed(0)
# %%
class AverageMeter(object):
    """Computes and stores the average and current value"""
    def __init__(self, name, fmt=':f'):
        self.name = name
        self.fmt = fmt
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
# %%
def train(train_loader, model, criterion, optimizer, epoch, args, f):
    losses = AverageMeter('Loss', ':.4e')
    # switch to train mode
    model.train()
    for i, (images, target) in enumerate(train_loader):
        # compute output
        output = model(images)
        # loss = criterion(output, target)
        # SAM
        # first forward-backward pass
        loss = criterion(output, target)  # use this loss for any training statistics
        loss.backward()
        optimizer.first_step(zero_grad=True)

        # second forward-backward pass
        criterion(output, target).backward()  # make sure to do a full forward pass
        optimizer.second_step(zero_grad=True)

        # measure accuracy and record loss
        losses.update(loss.item(), images.size(0))
    f.write('epoch {} loss {:.4f}\n'.format(epoch, losses.avg))
    return losses.avg
# %%
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
criterion = nn.CrossEntropyLoss()
base_optimizer = torch.optim.SGD
optimizer = SAM(model.parameters(), base_optimizer, lr=0.1, momentum=0.9)
train_loader = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(3)]
args = None
f = io.StringIO()
# %%
for epoch in range(2):
    print(train(train_loader, model, criterion, optimizer, epoch, args, f))
