# source: https://github.com/Project-MONAI/research-contributions/issues/392
# style: vision
# cause: grads_not_zeroed
# line: 48
# expert: add optimizer.zero_grad() before the forward pass of every iteration in train_epoch (the Swin UNETR tutorial loop never clears gradients)
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device('cpu')
batch_size, max_epochs = 2, 2


class AverageMeter(object):
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


model = nn.Sequential(nn.Conv3d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, 3, 1))
loss_func = nn.BCEWithLogitsLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-5)
loader = [{"image": torch.rand(batch_size, 1, 16, 16, 16), "label": (torch.rand(batch_size, 3, 16, 16, 16) > 0.5).float()}
          for _ in range(4)]


def train_epoch(model, loader, optimizer, epoch, loss_func):
    model.train()
    start_time = time.time()
    run_loss = AverageMeter()
    for idx, batch_data in enumerate(loader):
        data, target = batch_data["image"].to(device), batch_data["label"].to(device)
        optimizer.zero_grad()
        logits = model(data)
        loss = loss_func(logits, target)
        loss.backward()
        optimizer.step()
        run_loss.update(loss.item(), n=batch_size)
        print(
            "Epoch {}/{} {}/{}".format(epoch, max_epochs, idx, len(loader)),
            "loss: {:.4f}".format(run_loss.avg),
            "time {:.2f}s".format(time.time() - start_time),
        )
        start_time = time.time()
    return run_loss.avg


for epoch in range(max_epochs):
    train_epoch(model, loader, optimizer, epoch, loss_func)
