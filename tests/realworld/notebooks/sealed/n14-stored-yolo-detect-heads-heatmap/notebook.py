# source: variant of https://github.com/XiaMooo/Yolo-Detect-Layer-Visualization/issues/1 (the plot_multi_heatmap helper of yolov7_multi_head_cls_letterbox_with_auto.ipynb as quoted in the issue, with a tiny three-head YOLO stand-in returning the raw Detect-layer maps instead of a loaded yolov7 checkpoint, a random letterboxed image, and stubs for matplotlib/seaborn)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: cell 1 line 13
# expert: the detect-layer maps kept from the forward cell still require grad (the model ran outside torch.no_grad and its weights require grad), so plot_multi_heatmap's array.cpu().numpy() fails when the heatmap cell plots them; as the repository owner answered, convert with array.detach().cpu().numpy()
# %%
import numpy as np
import torch
import torch.nn as nn
import _stub_pyplot as plt  # stands in for matplotlib.pyplot
import _stub_seaborn as sns  # stands in for seaborn
torch.manual_seed(0)
# %%
def plot_multi_heatmap(*arrays, cmap='viridis', title=None, row=None, col=None):
    if row is None and col is None:
        row, col = 1, len(arrays)
    elif row is None:
        row = (len(arrays) + col - 1) // col
    elif col is None:
        col = (len(arrays) + row - 1) // row
    fig, ax = plt.subplots(row, col, figsize=(4 * col, 4 * row))
    if title is not None:
        fig.suptitle(title)
    for i, array in enumerate(arrays):
        if isinstance(array, torch.Tensor):
            array = array.cpu().numpy()
        r = i // col
        c = i % col
        axi = ax[r, c] if row > 1 else ax[c]
        sns.heatmap(array, square=True, cmap=cmap, ax=axi)
    plt.show()
# %%
class Detect(nn.Module):
    def __init__(self, nc=1, anchors=3, ch=(16, 32, 64)):
        super().__init__()
        self.nc, self.no, self.na, self.nl = nc, nc + 5, anchors, len(ch)
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def forward(self, x):
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        return x

class TinyYolo(nn.Module):  # stands in for the yolov7-tiny checkpoint loaded in the notebook
    def __init__(self, nc=1):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.1))
        self.p3 = nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1), nn.LeakyReLU(0.1))
        self.p4 = nn.Sequential(nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.1))
        self.p5 = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.LeakyReLU(0.1))
        self.detect = Detect(nc)

    def forward(self, img):
        p3 = self.p3(self.stem(img))
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        return self.detect([p3, p4, p5])

model = TinyYolo(nc=1)
model.eval()
stride = [4, 8, 16]
# %%
# letterboxed image (auto=True keeps it a multiple of the largest stride)
img = torch.rand(1, 3, 64, 96)
heads = model(img)
print([h.shape for h in heads])
# %%
# decode every head: sigmoid, then the objectness map of each anchor
conf_maps = []
for i, h in enumerate(heads):
    y = h.sigmoid()
    conf_maps.append([y[0, a, :, :, 4] for a in range(y.shape[1])])
# %%
plot_multi_heatmap(*conf_maps[0], title=f'stride {stride[0]} objectness', row=1)
