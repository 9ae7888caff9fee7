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


def train(train_loader, model, criterion, optimizer, epoch, args, f):
    losses = AverageMeter('Loss', ':.4e')
    # switch to train mode
    model.train()
    for i, (images, target) in enumerate(train_loader):
        # compute output
        output = model(images)
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
