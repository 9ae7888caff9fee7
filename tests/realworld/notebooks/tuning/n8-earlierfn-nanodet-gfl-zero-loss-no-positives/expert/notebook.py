# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial
torch.manual_seed(0)


def multi_apply(func, *args, **kwargs):
    pfunc = partial(func, **kwargs) if kwargs else func
    map_results = map(pfunc, *args)
    return tuple(map(list, zip(*map_results)))


def reduce_mean(tensor):
    return tensor  # single process: no all_reduce
# %%
class GFLHead(nn.Module):
    def __init__(self, num_classes=3, in_channels=16, reg_max=4, strides=(8, 16)):
        super().__init__()
        self.num_classes = num_classes
        self.cls_out_channels = num_classes
        self.reg_max = reg_max
        self.anchor_strides = strides
        self.gfl_cls = nn.ModuleList([nn.Conv2d(in_channels, num_classes, 3, padding=1) for _ in strides])
        self.gfl_reg = nn.ModuleList([nn.Conv2d(in_channels, 4 * (reg_max + 1), 3, padding=1) for _ in strides])

    def forward(self, feats):
        return [c(f) for c, f in zip(self.gfl_cls, feats)], [r(f) for r, f in zip(self.gfl_reg, feats)]

    def loss_single(self, cls_score, bbox_pred, labels, bbox_targets, stride, num_total_samples):
        cls_score = cls_score.permute(0, 2, 3, 1).reshape(-1, self.cls_out_channels)
        bbox_pred = bbox_pred.permute(0, 2, 3, 1).reshape(-1, 4 * (self.reg_max + 1))
        bbox_targets = bbox_targets.reshape(-1, 4)
        labels = labels.reshape(-1)
        bg_class_ind = self.num_classes
        pos_inds = torch.nonzero((labels >= 0) & (labels < bg_class_ind), as_tuple=False).squeeze(1)
        score = cls_score.new_zeros(labels.shape)
        if len(pos_inds) > 0:
            pos_bbox_targets = bbox_targets[pos_inds] / stride
            pos_bbox_pred = bbox_pred[pos_inds]
            weight_targets = cls_score.detach().sigmoid().max(dim=1)[0][pos_inds]
            pred_corners = pos_bbox_pred.reshape(-1, self.reg_max + 1)
            target_corners = pos_bbox_targets.reshape(-1).clamp(0, self.reg_max - 0.01)
            pos_decode = (F.softmax(pred_corners, dim=1) * torch.arange(self.reg_max + 1.)).sum(1)
            score[pos_inds] = 1.0
            # bbox loss
            loss_bbox = ((pos_decode - target_corners).abs().reshape(-1, 4).sum(1) * weight_targets).sum()
            # dfl loss
            dis_left = target_corners.long()
            weight_left = dis_left.float() + 1 - target_corners
            loss_dfl = (F.cross_entropy(pred_corners, dis_left, reduction='none') * weight_left
                        + F.cross_entropy(pred_corners, dis_left + 1, reduction='none') * (1 - weight_left))
            loss_dfl = (loss_dfl * weight_targets[:, None].expand(-1, 4).reshape(-1)).sum() / 4.0
        else:
            loss_bbox = bbox_pred.sum() * 0
            loss_dfl = bbox_pred.sum() * 0
            weight_targets = torch.tensor(0)

        # qfl loss
        onehot = F.one_hot(labels.clamp(max=bg_class_ind), bg_class_ind + 1)[:, :-1].float() * score[:, None]
        loss_qfl = F.binary_cross_entropy_with_logits(cls_score, onehot, reduction='sum') / num_total_samples
        return loss_qfl, loss_bbox, loss_dfl, weight_targets.sum()

    def loss(self, preds, gt_meta):
        cls_scores, bbox_preds = preds
        labels_list, bbox_targets_list, num_total_pos = self.gfl_target(cls_scores, gt_meta)
        num_total_samples = reduce_mean(torch.tensor(num_total_pos)).item()
        num_total_samples = max(num_total_samples, 1.0)

        losses_qfl, losses_bbox, losses_dfl, avg_factor = multi_apply(
            self.loss_single, cls_scores, bbox_preds, labels_list, bbox_targets_list,
            self.anchor_strides, num_total_samples=num_total_samples)

        avg_factor = sum(avg_factor)
        avg_factor = reduce_mean(avg_factor).item()
        if avg_factor <= 0:
            loss_qfl = torch.tensor(0, dtype=torch.float32, requires_grad=True)
            loss_bbox = torch.tensor(0, dtype=torch.float32, requires_grad=True)
            loss_dfl = torch.tensor(0, dtype=torch.float32, requires_grad=True)
        else:
            losses_bbox = list(map(lambda x: x / avg_factor, losses_bbox))
            losses_dfl = list(map(lambda x: x / avg_factor, losses_dfl))
            loss_qfl = sum(losses_qfl)
            loss_bbox = sum(losses_bbox)
            loss_dfl = sum(losses_dfl)

        loss = loss_qfl + loss_bbox + loss_dfl
        loss_states = dict(loss_qfl=loss_qfl, loss_bbox=loss_bbox, loss_dfl=loss_dfl)
        return loss, loss_states

    def gfl_target(self, cls_scores, gt_meta):
        """Simplified assigner: a grid cell is positive when its centre lies inside a ground-truth box."""
        labels_list, bbox_targets_list, num_pos = [], [], 0
        for cls_score, stride in zip(cls_scores, self.anchor_strides):
            n, _, h, w = cls_score.shape
            ys, xs = torch.meshgrid(torch.arange(h) * stride + stride / 2, torch.arange(w) * stride + stride / 2, indexing='ij')
            labels = torch.full((n, h, w), self.num_classes, dtype=torch.long)
            targets = torch.zeros(n, h, w, 4)
            for b in range(n):
                for box, lab in zip(gt_meta['gt_bboxes'][b], gt_meta['gt_labels'][b]):
                    x1, y1, x2, y2 = box.tolist()
                    inside = (xs > x1) & (xs < x2) & (ys > y1) & (ys < y2)
                    labels[b][inside] = int(lab)
                    targets[b][inside] = torch.stack([xs - x1, ys - y1, x2 - xs, y2 - ys], -1)[inside]
            num_pos += int((labels < self.num_classes).sum())
            labels_list.append(labels)
            bbox_targets_list.append(targets)
        return labels_list, bbox_targets_list, num_pos
# %%
class NanoDetStandIn(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Sequential(nn.Conv2d(3, 16, 3, 8, 1), nn.ReLU()),
                                       nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU())])
        self.head = GFLHead()

    def forward_train(self, gt_meta):
        x, feats = gt_meta['img'], []
        for stage in self.backbone:
            x = stage(x)
            feats.append(x)
        preds = self.head(feats)
        loss, loss_states = self.head.loss(preds, gt_meta)
        return preds, loss, loss_states


def run_step(model, meta, optimizer, mode='train'):
    output, loss, loss_dict = model.forward_train(meta)
    loss = loss.mean()
    if mode == 'train':
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return output, loss, loss_dict
# %%
model = NanoDetStandIn()
optimizer = torch.optim.SGD(model.parameters(), lr=0.14, momentum=0.9)
# a tiny dataset; the second image of the set has no annotated object
data_loader = [
    {'img': torch.rand(1, 3, 64, 64), 'gt_bboxes': [torch.tensor([[8., 8., 40., 48.]])], 'gt_labels': [torch.tensor([1])]},
    {'img': torch.rand(1, 3, 64, 64), 'gt_bboxes': [torch.zeros(0, 4)], 'gt_labels': [torch.zeros(0, dtype=torch.long)]},
    {'img': torch.rand(1, 3, 64, 64), 'gt_bboxes': [torch.tensor([[20., 4., 60., 36.]])], 'gt_labels': [torch.tensor([2])]},
]
# %%
# warm up
model.train()
num_iters, cur_iter = 30, 0
while cur_iter < num_iters:
    for iter_id, batch in enumerate(data_loader):
        cur_iter += 1
        if cur_iter >= num_iters:
            break
        for param_group in optimizer.param_groups:
            param_group['lr'] = 0.14 * (0.1 + 0.9 * cur_iter / num_iters)
        output, loss, loss_stats = run_step(model, batch, optimizer)
        print(cur_iter, {k: round(v.item(), 4) for k, v in loss_stats.items()})
