# expert fix of stored-fastai-style-transfer-closed-hooks
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial
torch.manual_seed(0)
# a small frozen stand-in for vgg16(True)
m_vgg = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)).eval()
for p in m_vgg.parameters():
    p.requires_grad_(False)
def children(m): return list(m.children())
block_ends = [1, 4, 7]   # the layers just before each max-pool
img_tfm = torch.rand(1, 3, 16, 16)
style_tfm = torch.rand(1, 3, 16, 16)
# %%
class SaveFeatures():
    features = None
    def __init__(self, m): self.hook = m.register_forward_hook(self.hook_fn)
    def hook_fn(self, module, input, output): self.features = output
    def close(self): self.hook.remove()
# %%
max_iter = 6

def get_opt():
    opt_img = torch.rand(1, 3, 16, 16)
    opt_img_v = opt_img.requires_grad_(True)
    return opt_img_v, torch.optim.LBFGS([opt_img_v], lr=0.5, max_iter=4)

def step(loss_fn):
    global n_iter
    optimizer.zero_grad()
    loss = loss_fn(opt_img_v)
    loss.backward()
    n_iter += 1
    return loss
# %%
# Style match
opt_img_v, optimizer = get_opt()
sfs = [SaveFeatures(children(m_vgg)[idx]) for idx in block_ends]
with torch.no_grad():
    m_vgg(img_tfm)
targ_vs = [o.features.clone() for o in sfs]
with torch.no_grad():
    m_vgg(style_tfm)
targ_styles = [o.features.clone() for o in sfs]
# %%
def gram(input):
    b, c, h, w = input.size()
    x = input.view(b * c, -1)
    return torch.mm(x, x.t()) / input.numel() * 1e6

def gram_mse_loss(input, target): return F.mse_loss(gram(input), gram(target))

def style_loss(x):
    m_vgg(opt_img_v)
    outs = [o.features for o in sfs]
    losses = [gram_mse_loss(o, s) for o, s in zip(outs, targ_styles)]
    return sum(losses)
# %%
n_iter = 0
while n_iter <= max_iter: optimizer.step(partial(step, style_loss))
# %%
for sf in sfs: sf.close()
# %%
# Style transfer
opt_img_v, optimizer = get_opt()
sfs = [SaveFeatures(children(m_vgg)[idx]) for idx in block_ends]
# %%
def comb_loss(x):
    m_vgg(opt_img_v)
    outs = [o.features for o in sfs]
    losses = [gram_mse_loss(o, s) for o, s in zip(outs, targ_styles)]
    cnt_loss = F.mse_loss(outs[2], targ_vs[2]) * 1000000
    style_loss = sum(losses)
    return cnt_loss + style_loss
# %%
n_iter = 0
while n_iter <= max_iter: optimizer.step(partial(step, comb_loss))
