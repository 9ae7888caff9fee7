# source: https://github.com/MultimediaTechLab/YOLO/pull/83
# style: vision
# cause: graph_kept_alive
# line: 49
# expert: keep the epoch totals as Python floats, total_loss = defaultdict(float) and total_loss[loss_name] += loss_val.item() * batch_size, so no batch's graph stays referenced
from collections import defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)


class YOLOLoss:
    def __init__(self):
        self.bce = nn.BCEWithLogitsLoss()

    def __call__(self, predicts, targets):
        loss_iou = (predicts[:, :4] - targets[:, :4]).abs().mean()
        loss_cls = self.bce(predicts[:, 4:], targets[:, 4:])
        loss_dfl = predicts[:, :4].pow(2).mean() * 0.01
        loss = 7.5 * loss_iou + 0.5 * loss_cls + 1.5 * loss_dfl
        return loss, {"BoxLoss": loss_iou, "ClsLoss": loss_cls, "DFLoss": loss_dfl}


class ModelTrainer:
    def __init__(self, model, device):
        self.model = model
        self.device = device
        self.loss_fn = YOLOLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)

    def train_one_batch(self, images, targets):
        self.optimizer.zero_grad()
        predicts = self.model(images).mean((2, 3))
        loss, loss_item = self.loss_fn(predicts, targets)
        loss.backward()
        self.optimizer.step()
        return loss_item

    def train_one_epoch(self, dataloader):
        self.model.train()
        total_loss = defaultdict(float)
        total_samples = 0
        for batch_size, images, targets in dataloader:
            loss_each = self.train_one_batch(images, targets)
            for loss_name, loss_val in loss_each.items():
                total_loss[loss_name] += loss_val.item() * batch_size
            total_samples += batch_size
        for loss_name in total_loss:
            total_loss[loss_name] /= total_samples
        return total_loss


model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.SiLU(), nn.Conv2d(16, 9, 3, stride=2))
trainer = ModelTrainer(model, torch.device("cpu"))
dataloader = [(4, torch.rand(4, 3, 64, 64), torch.rand(4, 9)) for _ in range(8)]
for epoch in range(2):
    epoch_loss = trainer.train_one_epoch(dataloader)
    print(epoch, {k: round(float(v), 4) for k, v in epoch_loss.items()})
