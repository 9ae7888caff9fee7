# source: https://github.com/shinkyo0513/Towards-Visually-Explaining-Video-Understanding-Networks-With-Perturbation/issues/10
# scenario: clean
# order: 0 1 2 2
# expert: clean: this is the corrected grad_cam from the issue: the forward/backward hooks keep the observed activation and gradient in module-level globals, but store o.detach() and o_grad[0].detach(), are registered per call and removed afterwards, and the target score uses the label; running the Grad-CAM cell again on a new batch keeps no graph from the previous call, so nothing is backpropagated twice
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import OrderedDict
torch.manual_seed(0)

model = nn.Sequential(OrderedDict([
    ('conv1', nn.Conv3d(3, 8, 3, padding=1)), ('relu1', nn.ReLU()),
    ('layer4', nn.Sequential(nn.Conv3d(8, 8, 3, padding=1), nn.ReLU())),
    ('pool', nn.AdaptiveAvgPool3d(1)), ('flatten', nn.Flatten()), ('fc', nn.Linear(8, 4)),
]))
device = torch.device('cpu')
# %%
# Backward hook
observ_grad_ = None
def backward_hook(m, i_grad, o_grad):
    global observ_grad_
    observ_grad_ = o_grad[0].detach()

# Forward hook
observ_actv_ = None
def forward_hook(m, i, o):
    global observ_actv_
    observ_actv_ = o.detach()

def grad_cam(inputs, labels, model, device, layer_name, norm_vis=True):
    model.eval()   # Set model to evaluate mode

    bs, ch, nt, h, w = inputs.shape
    assert ch == 3
    assert labels.shape[0] == bs

    observ_layer = model
    for name in layer_name:
        observ_layer = dict(observ_layer.named_children())[name]

    f_hook = observ_layer.register_forward_hook(forward_hook)
    b_hook = observ_layer.register_full_backward_hook(backward_hook)

    inputs = inputs.to(device)
    labels = labels.to(device)

    model.zero_grad()
    outputs = model(inputs)
    y_vals = outputs.gather(1, labels.view(-1, 1)).squeeze(1)   # use label instead of pred
    y_vals.sum().backward()

    f_hook.remove()
    b_hook.remove()

    weights = observ_grad_.mean(dim=(2, 3, 4), keepdim=True)
    gcam = F.relu((weights * observ_actv_).sum(dim=1, keepdim=True))
    gcam = F.interpolate(gcam, size=(nt, h, w), mode='trilinear', align_corners=False)
    if norm_vis:
        flat = gcam.view(bs, -1)
        flat = (flat - flat.min(1, keepdim=True)[0]) / (flat.max(1, keepdim=True)[0] - flat.min(1, keepdim=True)[0] + 1e-8)
        gcam = flat.view_as(gcam)
    return gcam
# %%
inputs = torch.randn(2, 3, 4, 8, 8)
labels = torch.randint(4, (2,))
heatmaps = grad_cam(inputs, labels, model, device, layer_name=['layer4'])
print(heatmaps.shape, heatmaps.requires_grad)
