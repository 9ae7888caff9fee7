"""utils/output_utils.py of Yolact_minimal (0eb65c8), cut down: NMS, after_nms and draw_img, with
draw_img's first line as in the reporter's fork (visual_top_k) and plain numpy drawing instead of cv2."""
import numpy as np
import torch

COLORS = np.array([[0, 0, 0], [244, 67, 54], [233, 30, 99], [156, 39, 176], [103, 58, 183],
                   [63, 81, 181], [33, 150, 243], [3, 169, 244], [0, 188, 212]], dtype='uint8')


def NMS(net_outs, trad_nms=False):
    # stand-in: keep the highest-scoring class of every prior, no suppression
    class_p, box_p, coef_p, proto_p = net_outs
    scores, class_ids = class_p[0, :, 1:].max(dim=1)
    return {'class_ids': class_ids, 'class': scores, 'box': box_p[0], 'coef': coef_p[0], 'proto': proto_p[0]}


def after_nms(nms_outs, img_h, img_w, show_lincomb=False, crop_masks=True, visual_thre=0, img_name=None):
    if nms_outs is None:
        return [torch.Tensor()] * 4  # Warning, this is 4 copies of the same thing

    if visual_thre > 0:
        keep = nms_outs['class'] > visual_thre

        for k in nms_outs:
            if k != 'proto':
                nms_outs[k] = nms_outs[k][keep]

        if nms_outs['class'].size(0) == 0:
            return [torch.Tensor()] * 4

    class_ids = nms_outs['class_ids']
    boxes = nms_outs['box']
    classes = nms_outs['class']
    coefs = nms_outs['coef']

    # At this points masks is only the coefficients
    proto_data = nms_outs['proto']

    masks = torch.sigmoid(torch.matmul(proto_data, coefs.t()))
    masks = masks.permute(2, 0, 1).contiguous()
    masks = torch.nn.functional.interpolate(masks.unsqueeze(0), (img_h, img_w), mode='bilinear',
                                            align_corners=False).squeeze(0)
    boxes = (boxes.clamp(0, 1) * torch.tensor([img_w - 1, img_h - 1, img_w - 1, img_h - 1])).long()

    return class_ids, classes, boxes, masks


def draw_img(results, img_origin, args, fps=None):
    class_ids, classes, boxes = [x[:args.visual_top_k].cpu().numpy() for x in results[:3]]
    masks = results[3][:args.visual_top_k].cpu().numpy() > 0.5
    num_detected = class_ids.shape[0]

    if num_detected == 0:
        # No detections found so just output the original image
        return img_origin

    img_fused = img_origin.copy()
    if not args.hide_mask:
        masks = masks * (class_ids[:, None, None] + 1)  # expand class_ids' shape for broadcasting
        masks = masks.astype('int').sum(axis=0) % (len(COLORS) - 1)
        color_masks = COLORS[masks].astype('uint8')
        img_fused = (0.4 * color_masks + 0.6 * img_origin).astype('uint8')

    if not args.hide_bbox:
        for i in reversed(range(num_detected)):
            x1, y1, x2, y2 = boxes[i, :]
            color = COLORS[class_ids[i] + 1]
            img_fused[y1, x1:x2 + 1] = color
            img_fused[y2, x1:x2 + 1] = color
            img_fused[y1:y2 + 1, x1] = color
            img_fused[y1:y2 + 1, x2] = color

    return img_fused
