# source: https://github.com/feiyuhuahuo/Yolact_minimal/issues/9 (the reporter's web-service flow, detect.py's image branch run as notebook cells: the model cell, the prediction cell the reporter moved out of detect.py's `with torch.no_grad():` block, and the drawing cell calling draw_img of utils/output_utils.py, whose first line is the one in the traceback; a tiny Yolact stand-in with random weights instead of the trained model, a random 32x32 image instead of the posted one, numpy drawing instead of cv2)
# scenario: earlier_cell
# cause: numpy_on_grad_tensor
# root: cell 2 line 6
# expert: the prediction cell runs net(img_trans) outside torch.no_grad(), so the scores in results carry a graph back to the weights, and draw_img's x.cpu().numpy() refuses them. As the maintainer answered ("Have you removed this: `with torch.no_grad():` at the beginning of detect.py? If so, some tensors would need grad"), run the prediction under torch.no_grad() as detect.py does
# %%
import types
import numpy as np
import torch
import torch.nn as nn
from output_utils import NMS, after_nms, draw_img

torch.manual_seed(0)
np.random.seed(0)
args = types.SimpleNamespace(traditional_nms=False, visual_thre=0.1, visual_top_k=5, hide_mask=False,
                             hide_bbox=False, no_crop=True)


class Yolact(nn.Module):
    # stand-in: a conv backbone with class / box / coefficient heads and a prototype branch
    def __init__(self, num_classes=8, num_priors=10, num_protos=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.class_head = nn.Linear(128, num_priors * (num_classes + 1))
        self.box_head = nn.Linear(128, num_priors * 4)
        self.coef_head = nn.Linear(128, num_priors * num_protos)
        self.proto = nn.Conv2d(3, num_protos, 3, padding=1)
        self.num_priors, self.num_classes, self.num_protos = num_priors, num_classes, num_protos

    def forward(self, x):
        f = self.backbone(x).flatten(1)
        class_p = self.class_head(f).view(-1, self.num_priors, self.num_classes + 1).softmax(-1)
        box_p = torch.sigmoid(self.box_head(f).view(-1, self.num_priors, 4)).sort(-1).values
        coef_p = torch.tanh(self.coef_head(f).view(-1, self.num_priors, self.num_protos))
        proto_p = torch.relu(self.proto(nn.functional.avg_pool2d(x, 2))).permute(0, 2, 3, 1)
        return class_p, box_p, coef_p, proto_p


def FastBaseTransform():
    return lambda img: (img.permute(0, 3, 1, 2) / 255.0 - 0.5) / 0.25
# %%
net = Yolact()
net.eval()
print('Model loaded.\n')
# %%
with torch.no_grad():
    img_origin = np.random.randint(0, 256, size=(32, 32, 3)).astype('uint8')
    img_tensor = torch.from_numpy(img_origin).float()
    img_h, img_w = img_tensor.shape[0], img_tensor.shape[1]
    img_trans = FastBaseTransform()(img_tensor.unsqueeze(0))

    net_outs = net(img_trans)
    nms_outs = NMS(net_outs, args.traditional_nms)
    results = after_nms(nms_outs, img_h, img_w, crop_masks=not args.no_crop, visual_thre=args.visual_thre)
# %%
img_numpy = draw_img(results, img_origin, args)
print(img_numpy.shape, img_numpy.dtype, img_numpy.mean())
