# source: https://github.com/WongKinYiu/yolov7/pull/333 (tools/keypoint.ipynb of yolov7 before the PR: "The error RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead. of kepoint.ipynb fixed." The notebook's cells as in the repository; utils/general.py, utils/plots.py and utils/datasets.py are the repository's, cut down to the functions used and kept next to the notebook as general.py, plots.py and datasets.py (so the imports read from general/plots/datasets instead of utils.*); a tiny pose model with random weights and the yaml fields nc/nkpt stands in for torch.load('yolov7-w6-pose.pt')['model'], in float on cpu instead of half on cuda; stubs for cv2, torchvision and matplotlib, and a seeded random image for person.jpg)
# scenario: imported_module
# cause: numpy_on_grad_tensor
# root: file plots.py line 16
# expert: the pose model runs outside torch.no_grad(), so its detections, and the rows non_max_suppression_kpt keeps from them, require grad; output_to_keypoint in utils/plots.py then converts them with o.cpu().numpy() and kpts.cpu().numpy(), which fails. As the merged PR does, detach before converting: o.detach().cpu().numpy() and kpts.detach().cpu().numpy()
# %%
import _stub_pyplot as plt  # stands in for matplotlib.pyplot
import torch
import _stub_cv2 as cv2  # stands in for OpenCV
from _stub_torchvision import transforms  # stands in for torchvision.transforms
import numpy as np
from datasets import letterbox
from general import non_max_suppression_kpt
from plots import output_to_keypoint, plot_skeleton_kpts
# %%
torch.manual_seed(0)


class TinyPose(torch.nn.Module):
    """stand-in for the yolov7-w6-pose checkpoint: per anchor [x, y, w, h, obj, cls, 17 x (x, y, conf)]"""
    yaml = {'nc': 1, 'nkpt': 17}

    def __init__(self, n_anchors=8):
        super().__init__()
        self.n = n_anchors
        self.backbone = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 8, stride=8), torch.nn.SiLU(),
                                            torch.nn.AdaptiveAvgPool2d(4), torch.nn.Flatten())
        self.head = torch.nn.Linear(8 * 16, n_anchors * 57)

    def forward(self, x):
        h, w = x.shape[2:]
        p = self.head(self.backbone(x)).view(x.shape[0], self.n, 57)
        scale = torch.tensor([w, h, w / 4, h / 4], dtype=x.dtype)
        box = torch.sigmoid(p[..., :4]) * scale + torch.tensor([0, 0, 8, 8], dtype=x.dtype)
        conf = torch.sigmoid(p[..., 4:6] + 2.0)
        kxy = torch.sigmoid(p[..., 6:].view(x.shape[0], self.n, 17, 3)) * torch.tensor([w, h, 1.0])
        return torch.cat([box, conf, kxy.flatten(2)], -1), [p]


device = torch.device("cpu")
weigths = {'model': TinyPose()}  # torch.load('yolov7-w6-pose.pt')
model = weigths['model']
model = model.to(device)
_ = model.eval()
# %%
image = cv2.imread('./person.jpg')
image = letterbox(image, 960, stride=64, auto=True)[0]
image_ = image.copy()
image = transforms.ToTensor()(image)
image = torch.tensor(np.array([image.numpy()]))
image = image.to(device)

output, _ = model(image)
# %%
output = non_max_suppression_kpt(output, 0.25, 0.65, nc=model.yaml['nc'], nkpt=model.yaml['nkpt'], kpt_label=True)
output = output_to_keypoint(output)
nimg = image[0].permute(1, 2, 0) * 255
nimg = nimg.cpu().numpy().astype(np.uint8)
nimg = cv2.cvtColor(nimg, cv2.COLOR_RGB2BGR)
for idx in range(output.shape[0]):
    plot_skeleton_kpts(nimg, output[idx, 7:].T, 3)
print(output.shape)
