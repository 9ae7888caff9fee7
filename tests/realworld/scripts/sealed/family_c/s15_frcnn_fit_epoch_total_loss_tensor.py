# source: https://github.com/bubbliiiing/faster-rcnn-pytorch/issues/35 (fit_ont_epoch of train.py and FasterRCNNTrainer.train_step of trainer.py as they were at 977d740, before the .item() fix of d456f02; a tiny conv backbone with RPN/ROI heads and random targets instead of the ResNet50 Faster R-CNN and VOC, the tqdm bar replaced by prints, CPU)
# style: vision
# cause: graph_kept_alive
# line: 111
# expert: fit_ont_epoch sums the loss tensors returned by train_step (total_loss += total, rpn_loc_loss += rpn_loc, ...) without .item(), so every batch's graph stays referenced by the running sums for the whole epoch and host/GPU memory keeps growing. The reporter's fix, applied in the repository, accumulates total.item(), rpn_loc.item(), rpn_cls.item(), roi_loc.item() and roi_cls.item().
from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable

torch.manual_seed(0)
np.random.seed(0)

LossTuple = namedtuple('LossTuple',
                       ['rpn_loc_loss',
                        'rpn_cls_loss',
                        'roi_loc_loss',
                        'roi_cls_loss',
                        'total_loss'
                        ])


class FasterRCNN(nn.Module):
    """Backbone + RPN + ROI head, reduced to dense predictions on a 16x16 feature map."""

    def __init__(self, num_classes, n_anchor=9):
        super().__init__()
        self.extractor = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.rpn_conv = nn.Conv2d(32, 32, 3, 1, 1)
        self.rpn_loc = nn.Conv2d(32, n_anchor * 4, 1)
        self.rpn_score = nn.Conv2d(32, n_anchor * 2, 1)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 4 * 4, 64), nn.ReLU())
        self.roi_loc = nn.Linear(64, (num_classes + 1) * 4)
        self.roi_score = nn.Linear(64, num_classes + 1)

    def forward(self, x):
        feat = self.extractor(x)
        h = F.relu(self.rpn_conv(feat))
        rpn_locs = self.rpn_loc(h).permute(0, 2, 3, 1).reshape(-1, 4)
        rpn_scores = self.rpn_score(h).permute(0, 2, 3, 1).reshape(-1, 2)
        rois = F.adaptive_max_pool2d(feat, 4)
        fc = self.head(rois)
        return rpn_locs, rpn_scores, self.roi_loc(fc), self.roi_score(fc)


def _smooth_l1_loss(x, t, sigma):
    sigma2 = sigma ** 2
    diff = x - t
    abs_diff = diff.abs()
    flag = (abs_diff.data < (1. / sigma2)).float()
    y = (flag * (sigma2 / 2.) * (diff ** 2) + (1 - flag) * (abs_diff - 0.5 / sigma2))
    return y.sum() / x.shape[0]


class FasterRCNNTrainer(nn.Module):
    def __init__(self, faster_rcnn, optimizer):
        super(FasterRCNNTrainer, self).__init__()
        self.faster_rcnn = faster_rcnn
        self.rpn_sigma = 1
        self.roi_sigma = 1
        self.optimizer = optimizer

    def forward(self, imgs, bboxes, labels, scale):
        rpn_locs, rpn_scores, roi_cls_loc, roi_score = self.faster_rcnn(imgs)
        gt_rpn_loc = bboxes[0].repeat(rpn_locs.shape[0] // bboxes[0].shape[0] + 1, 1)[:rpn_locs.shape[0]]
        gt_rpn_label = (gt_rpn_loc.sum(1) > 0).long()
        rpn_loc_loss = _smooth_l1_loss(rpn_locs, gt_rpn_loc, self.rpn_sigma)
        rpn_cls_loss = F.cross_entropy(rpn_scores, gt_rpn_label)
        gt_label = labels[0][:1].long()
        roi_loc = roi_cls_loc.view(1, -1, 4)[:, gt_label[0]]
        roi_loc_loss = _smooth_l1_loss(roi_loc, bboxes[0][:1], self.roi_sigma)
        roi_cls_loss = F.cross_entropy(roi_score, gt_label)
        losses = [rpn_loc_loss, rpn_cls_loss, roi_loc_loss, roi_cls_loss]
        losses = losses + [sum(losses)]
        return LossTuple(*losses)

    def train_step(self, imgs, bboxes, labels, scale):
        self.optimizer.zero_grad()
        losses = self.forward(imgs, bboxes, labels, scale)
        losses.total_loss.backward()
        self.optimizer.step()
        return losses


def get_lr(optimizer):
    for param_group in optimizer.param_groups:
        return param_group['lr']


def fit_ont_epoch(net, epoch, epoch_size, gen, Epoch):
    total_loss = 0
    rpn_loc_loss = 0
    rpn_cls_loss = 0
    roi_loc_loss = 0
    roi_cls_loss = 0
    for iteration, batch in enumerate(gen):
        if iteration >= epoch_size:
            break
        imgs, boxes, labels = batch[0], batch[1], batch[2]

        with torch.no_grad():
            imgs = Variable(torch.from_numpy(imgs).type(torch.FloatTensor))
            boxes = [Variable(torch.from_numpy(box).type(torch.FloatTensor)) for box in boxes]
            labels = [Variable(torch.from_numpy(label).type(torch.FloatTensor)) for label in labels]
        losses = train_util.train_step(imgs, boxes, labels, 1)
        rpn_loc, rpn_cls, roi_loc, roi_cls, total = losses
        total_loss += total
        rpn_loc_loss += rpn_loc
        rpn_cls_loss += rpn_cls
        roi_loc_loss += roi_loc
        roi_cls_loss += roi_cls

        print(f'Epoch {epoch + 1}/{Epoch} it {iteration}: total {float(total_loss) / (iteration + 1):.4f}, '
              f'rpn_loc {float(rpn_loc_loss) / (iteration + 1):.4f}, rpn_cls {float(rpn_cls_loss) / (iteration + 1):.4f}, '
              f'roi_loc {float(roi_loc_loss) / (iteration + 1):.4f}, roi_cls {float(roi_cls_loss) / (iteration + 1):.4f}, '
              f'lr {get_lr(optimizer)}')
    return total_loss / epoch_size


def Generator(n):
    """Random (image, boxes, labels) batches of size 1 standing in for the VOC generator."""
    for _ in range(n):
        img = np.random.rand(1, 3, 64, 64).astype(np.float32)
        boxes = [np.random.rand(3, 4).astype(np.float32)]
        labels = [np.random.randint(0, 20, (3,)).astype(np.float32)]
        yield img, boxes, labels


NUM_CLASSES = 20
model = FasterRCNN(NUM_CLASSES)
optimizer = optim.Adam(model.parameters(), lr=1e-4, weight_decay=5e-4)
train_util = FasterRCNNTrainer(model, optimizer)
Epoch = 2
epoch_size = 4
for epoch in range(Epoch):
    fit_ont_epoch(model, epoch, epoch_size, Generator(epoch_size), Epoch)
