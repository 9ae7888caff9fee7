# source: https://github.com/fastai/fastai/pull/981
# scenario: stored_activations
# cause: no_grad_fn
# root: cell 1 line 14
# expert: fastai's Hook.hook_fn always detached the module output before storing it in hook.stored, so the VGG features of the style network's output image that the loss reads from the hooks carry no graph back to the style network and loss.backward() has nothing to differentiate. PR #981 adds a detach flag to Hook/Hooks/hook_outputs ("useful for style transfer networks which need the graph history"), and the style-transfer training hooks the loss network with hook_outputs(..., detach=False).
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
# fastai/callbacks/hooks.py (fastai 1.0.x, before PR #981)
def is_listy(x): return isinstance(x, (tuple, list))

class Hook():
    "Create a hook."
    def __init__(self, m:nn.Module, hook_func, is_forward:bool=True):
        self.hook_func,self.stored = hook_func,None
        f = m.register_forward_hook if is_forward else m.register_backward_hook
        self.hook = f(self.hook_fn)
        self.removed = False

    def hook_fn(self, module:nn.Module, input, output):
        input  = (o.detach() for o in input ) if is_listy(input ) else input.detach()
        output = (o.detach() for o in output) if is_listy(output) else output.detach()
        self.stored = self.hook_func(module, input, output)

    def remove(self):
        if not self.removed:
            self.hook.remove()
            self.removed=True

class Hooks():
    "Create several hooks."
    def __init__(self, ms, hook_func, is_forward:bool=True):
        self.hooks = [Hook(m, hook_func, is_forward) for m in ms]

    def __getitem__(self,i:int) -> Hook: return self.hooks[i]
    def __len__(self) -> int: return len(self.hooks)
    def __iter__(self): return iter(self.hooks)
    @property
    def stored(self): return [o.stored for o in self]

    def remove(self):
        for h in self.hooks: h.remove()

def _hook_inner(m,i,o): return o if isinstance(o,torch.Tensor) else list(o)

def hook_outputs(modules, grad:bool=False) -> Hooks:
    return Hooks(modules, _hook_inner, is_forward=not grad)
# %%
# loss network: a small frozen VGG-like stack (random weights) instead of vgg16_bn
vgg = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
vgg.eval()
for p in vgg.parameters(): p.requires_grad_(False)
layer_ids = [1, 3, 6, 8]
sfs = hook_outputs([vgg[i] for i in layer_ids])

# the style (transformer) network being trained
style_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                          nn.Conv2d(8, 3, 3, padding=1), nn.Sigmoid())
# %%
def gram(x):
    b, c, h, w = x.size()
    x = x.view(b, c, -1)
    return x @ x.transpose(1, 2) / (c * h * w)

def get_feats(x):
    vgg(x)
    return [o.clone() for o in sfs.stored]

style_img = torch.rand(1, 3, 16, 16)
with torch.no_grad():
    style_grams = [gram(f) for f in get_feats(style_img)]

def style_transfer_loss(out, content):
    out_feats = get_feats(out)
    content_feats = get_feats(content)
    content_loss = F.mse_loss(out_feats[2], content_feats[2])
    style_loss = sum(F.mse_loss(gram(f), g.expand(f.size(0), -1, -1)) for f, g in zip(out_feats, style_grams))
    return content_loss + 1e3 * style_loss
# %%
optimizer = torch.optim.Adam(style_net.parameters(), lr=1e-3)
content_batches = [torch.rand(2, 3, 16, 16) for _ in range(3)]
for step, content in enumerate(content_batches):
    out = style_net(content)
    loss = style_transfer_loss(out, content)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
