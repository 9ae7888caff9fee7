"""Stand-in for torchvision (not installed here): transforms.ToTensor and ops.nms."""
import numpy as np
import torch


class transforms:
    class ToTensor:
        def __call__(self, pic):
            return torch.from_numpy(np.ascontiguousarray(pic)).permute(2, 0, 1).float().div(255)


class ops:
    @staticmethod
    def nms(boxes, scores, iou_threshold):
        order = scores.argsort(descending=True)
        keep = []
        while order.numel():
            i = order[0]
            keep.append(i)
            if order.numel() == 1:
                break
            b, rest = boxes[i], boxes[order[1:]]
            lt = torch.max(b[:2], rest[:, :2])
            rb = torch.min(b[2:], rest[:, 2:])
            inter = (rb - lt).clamp(min=0).prod(1)
            area = lambda x: (x[..., 2] - x[..., 0]) * (x[..., 3] - x[..., 1])
            iou = inter / (area(b) + area(rest) - inter)
            order = order[1:][iou <= iou_threshold]
        return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)
