# source: variant of https://github.com/Mayukhdeb/torch-dreams/issues/38
# scenario: stored_activations
# cause: computed_before_loop
# root: file torch_dreams.py line 66
# expert: with static=True the caricature captures the hooked layer outputs of the input image once before the optimisation loop, and CaricatureLoss only detaches that stored target when it has to resize it, so whenever the rendered image has the same size the target's graph through the model is backpropagated and freed on the first step and the second loss.backward() fails; the maintainer's fix (commit 2bc3abc, "Fix #38 detach y manually") detaches y unconditionally in CaricatureLoss.cosine_dissimilarity
# %%
import random

import torch
import torch.nn as nn
torch.manual_seed(0)
random.seed(0)

# stand-in for models.googlenet(pretrained=True): its weights still require grad
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
)
inception4c = model[2]
# %%
from torch_dreams import dreamer

dreamy_boi = dreamer(model=model, quiet=False, device='cpu')
# %%
# stand-in for the loaded and normalised photo
image_tensor = torch.rand(1, 3, 32, 32)
# %%
image_param = dreamy_boi.caricature(
    input_tensor=image_tensor,
    layers=[inception4c],
    power=1.2,                     ## higher -> more "exaggerated" features
    static=True,
    scale_max=1.0, scale_min=1.0,  ## no zoom jitter: the rendered image keeps the input's size
    iters=5
)
