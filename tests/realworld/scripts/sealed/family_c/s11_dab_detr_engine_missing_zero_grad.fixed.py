# source: variant of https://github.com/IDEA-Research/DAB-DETR/issues/58 (train_one_epoch of engine.py at 7989945 with a tiny query-based detector, a simplified criterion without Hungarian matching, and a minimal MetricLogger on random data; the GradScaler calls of the AMP branch are dropped since it runs on CPU)
# style: vision
# cause: grads_not_zeroed
# line: 131
# expert: In the non-AMP branch of train_one_epoch ("original backward function") optimizer.zero_grad() is never called, so every losses.backward() adds to the gradients of all previous iterations and optimizer.step() applies the running sum. The maintainers acknowledged it as a bug in the issue; the fix is to call optimizer.zero_grad() before losses.backward() as the AMP branch already does.
import math
import sys
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmoothedValue:
    def __init__(self, window_size=20, fmt=None):
        self.total, self.count = 0.0, 0

    def update(self, value, n=1):
        self.count += n
        self.total += value * n

    @property
    def global_avg(self):
        return self.total / max(self.count, 1)


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.meters = {}
        self.delimiter = delimiter

    def add_meter(self, name, meter):
        self.meters[name] = meter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters.setdefault(k, SmoothedValue()).update(v)

    def log_every(self, iterable, print_freq, header=None, logger=None):
        for i, obj in enumerate(iterable):
            yield obj

    def synchronize_between_processes(self):
        pass

    def __str__(self):
        return self.delimiter.join(f"{k}: {m.global_avg:.4f}" for k, m in self.meters.items())


class utils:
    MetricLogger = MetricLogger
    SmoothedValue = SmoothedValue

    @staticmethod
    def reduce_dict(input_dict, average=True):
        return input_dict


class TinyDETR(nn.Module):
    def __init__(self, num_classes=3, num_queries=5, hidden_dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden_dim, 4, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_embed = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = nn.Linear(hidden_dim, 4)

    def forward(self, samples):
        feat = self.backbone(samples)
        hs = feat[:, None, :] + self.query_embed.weight[None]
        return {'pred_logits': self.class_embed(hs), 'pred_boxes': self.bbox_embed(hs).sigmoid()}


class SetCriterion(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.num_classes = num_classes
        self.weight_dict = {'loss_ce': 1.0, 'loss_bbox': 5.0}

    def forward(self, outputs, targets):
        # simplified: target i is matched to query i, remaining queries predict "no object"
        logits, boxes = outputs['pred_logits'], outputs['pred_boxes']
        tgt_classes = torch.full(logits.shape[:2], self.num_classes, dtype=torch.long)
        loss_bbox = 0.
        for b, t in enumerate(targets):
            n = len(t['labels'])
            tgt_classes[b, :n] = t['labels']
            loss_bbox = loss_bbox + F.l1_loss(boxes[b, :n], t['boxes'], reduction='sum')
        loss_ce = F.cross_entropy(logits.transpose(1, 2), tgt_classes)
        return {'loss_ce': loss_ce, 'loss_bbox': loss_bbox / len(targets)}


def train_one_epoch(model, criterion, data_loader, optimizer, device, epoch, max_norm=0, args=None):
    model.train()
    criterion.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    metric_logger.add_meter('lr', utils.SmoothedValue(window_size=1, fmt='{value:.6f}'))
    header = 'Epoch: [{}]'.format(epoch)
    print_freq = 10

    for samples, targets in metric_logger.log_every(data_loader, print_freq, header):
        samples = samples.to(device)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        outputs = model(samples)
        loss_dict = criterion(outputs, targets)
        weight_dict = criterion.weight_dict
        losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict.keys() if k in weight_dict)

        loss_dict_reduced = utils.reduce_dict(loss_dict)
        loss_dict_reduced_scaled = {k: v * weight_dict[k] for k, v in loss_dict_reduced.items() if k in weight_dict}
        losses_reduced_scaled = sum(loss_dict_reduced_scaled.values())
        loss_value = losses_reduced_scaled.item()

        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)

        if args.amp:
            optimizer.zero_grad()
            losses.backward()
            if max_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()
        else:
            # original backward function
            optimizer.zero_grad()
            losses.backward()
            if max_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
            optimizer.step()

        metric_logger.update(loss=loss_value, **loss_dict_reduced_scaled)
        metric_logger.update(lr=optimizer.param_groups[0]["lr"])

    metric_logger.synchronize_between_processes()
    print("Averaged stats:", metric_logger)
    return {k: meter.global_avg for k, meter in metric_logger.meters.items()}


args = SimpleNamespace(amp=False)
model = TinyDETR()
criterion = SetCriterion()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4)
data_loader = [(torch.rand(2, 3, 32, 32),
                [{'labels': torch.randint(0, 3, (2,)), 'boxes': torch.rand(2, 4)} for _ in range(2)])
               for _ in range(4)]
for epoch in range(2):
    train_one_epoch(model, criterion, data_loader, optimizer, torch.device('cpu'), epoch, max_norm=0.1, args=args)
