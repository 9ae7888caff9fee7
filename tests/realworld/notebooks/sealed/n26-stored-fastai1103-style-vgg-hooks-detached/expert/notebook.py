# source: variant of https://github.com/fastai/fastai/pull/1103 (the PR adds a detach flag to fastai's Hooks because "detach=False is needed for style transfer network as it needs the gradient computation history", pointing at bearpelican/arbitrary_style training/models.py, whose VGGActivations stores the VGG block outputs with Hooks(..., detach=False) and whose loss.py TransferLoss builds the content and style losses from them; here the hooks are created without the flag, i.e. detached as fastai did by default. Cut down: a small frozen conv stack instead of vgg16_bn, a small conv StyleTransformer without the style predictor, random content/style images, the loss without the total-variation term, and _stub_fastai_hooks.py standing in for fastai.callbacks.hooks)
# scenario: stored_activations
# cause: no_grad_fn
# root: cell 1 line 15
# expert: Hooks stores each hooked VGG block's output detached by default, so inp_feat, the features of the transformer's output, carry no graph and the content and style losses built from them do not require grad; loss.backward() fails. As the PR's example usage does, create the hooks with detach=False (Hooks([...], lambda m,i,o: o, detach=False)) so the stored activations keep their gradient history back to the transformer.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from _stub_fastai_hooks import Hooks  # stands in for fastai.callbacks.hooks

torch.manual_seed(0)

def children(m): return list(m.children())

def requires_grad(m, b):
    for p in m.parameters(): p.requires_grad_(b)
# %%
class VGGActivations(nn.Module):
    def __init__(self):
        super().__init__()
        # stand-in for children(vgg16_bn(True).eval())[0]: conv/bn/relu blocks ending in max-pools
        self.base = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2)).eval()
        requires_grad(self.base, False)

        blocks = [i-1 for i,o in enumerate(children(self.base))
                    if isinstance(o,nn.MaxPool2d)]

        layer_ids = blocks
        print('Layer ids: ', layer_ids)
        self.hooks = Hooks([self.base[i] for i in layer_ids], lambda m,i,o: o, detach=False)

    def forward(self, input):
        self.base(input)
        return self.hooks.stored
# %%
class TransferLoss(nn.Module):
    def __init__(self, m_vgg, cont_wgt, style_wgt, style_block_wgts, c_block=1):
        super().__init__()
        self.style_wgt,self.style_block_wgts = style_wgt,style_block_wgts
        self.cont_wgt = cont_wgt
        self.m_vgg,self.c_block = m_vgg,c_block

    def forward(self, input, x_cont, x_style):
        style_wgts = [self.style_wgt*b for b in self.style_block_wgts]
        bs = x_cont.size(0)
        with torch.no_grad():
            style_batch = x_style.repeat(bs,1,1,1)
            s_out = self.m_vgg(style_batch)
            style_feat = [s.clone() for s in s_out]

            cont_feat = self.m_vgg(x_cont)[self.c_block].clone()

        inp_feat = self.m_vgg(input)

        closs = [ct_loss(inp_feat[self.c_block],cont_feat) * self.cont_wgt]
        sloss = [gram_loss(inp,targ)*wgt for inp,targ,wgt in zip(inp_feat, style_feat, style_wgts) if wgt > 0]

        return torch.stack((sum(closs), sum(sloss)))

def ct_loss(input, target): return F.mse_loss(input,target)

def gram(input):
        b,c,h,w = input.size()
        x = input.view(b, c, -1)
        return torch.bmm(x, x.transpose(1,2))/(c*h*w)

def gram_loss(input, target): return F.mse_loss(gram(input), gram(target))
# %%
# small stand-in for the StyleTransformer: conv - residual - conv
class StyleTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
                                      nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return self.features(x)

mt = StyleTransformer()
m_vgg = VGGActivations()
loss_func = TransferLoss(m_vgg, cont_wgt=5e2, style_wgt=1e3, style_block_wgts=[1, 80, 200], c_block=1)
optimizer = torch.optim.Adam(mt.parameters(), lr=1e-3)

content_images = torch.rand(8, 3, 32, 32)
x_style = torch.rand(1, 3, 32, 32)
# %%
mt.train()
for batch_id in range(4):
    x_con = content_images[batch_id*2:batch_id*2+2]
    out = mt(x_con)
    losses = loss_func(out, x_con, x_style)
    loss = losses.sum()

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(batch_id, [round(l.item(), 4) for l in losses])
