# source: https://github.com/PacktPublishing/Modern-Computer-Vision-with-PyTorch/issues/36 (Chapter11/neural_style_transfer.ipynb as it was before commit 22fdc64 "Fix #36": after the LBFGS optimization, out_img = postprocess(opt_img[0]) raises "a view of a leaf Variable that requires grad is being used in an in-place operation"; the book's fix wraps that call in torch.no_grad(). The notebook's cells as in the repository, without the pip/wget lines; stubs for torch_snippets and torchvision (transforms, and vgg19 with the same layer layout but few channels and seeded random weights instead of the pretrained ones), seeded random images instead of the downloaded ones, resized to 64x64 instead of 512x512, max_iters 5 instead of 500)
# scenario: inplace_setup
# cause: leaf_inplace
# root: cell 1 line 8
# expert: postprocess, defined in the setup cell, starts with T.Lambda(lambda x: x.mul_(1./255)), an in-place multiply; it is applied to opt_img[0], a view of the optimized image opt_img, a leaf that requires grad, so the in-place op on it is refused. As the book's fix does, run the post-processing without grad tracking: with torch.no_grad(): out_img = postprocess(opt_img[0]).permute(1,2,0)
# %%
from _stub_torch_snippets import *  # stands in for torch_snippets
from _stub_torchvision import transforms as T  # stands in for torchvision.transforms
from torch.nn import functional as F
torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
# %%
from _stub_torchvision import vgg19  # stands in for torchvision.models.vgg19
preprocess = T.Compose([
    T.ToTensor(),
    T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
    T.Lambda(lambda x: x.mul_(255))
])
postprocess = T.Compose([
    T.Lambda(lambda x: x.mul_(1./255)),
    T.Normalize(mean=[-0.485/0.229, -0.456/0.224, -0.406/0.225], std=[1/0.229, 1/0.224, 1/0.225]),
])
# %%
class GramMatrix(nn.Module):
    def forward(self, input):
        b,c,h,w = input.size()
        feat = input.view(b, c, h*w)
        G = feat@feat.transpose(1,2)
        G.div_(h*w)
        return G
class GramMSELoss(nn.Module):
    def forward(self, input, target):
        out = F.mse_loss(GramMatrix()(input), target)
        return(out)
class vgg19_modified(nn.Module):
    def __init__(self):
        super().__init__()
        features = list(vgg19(pretrained = True).features)
        self.features = nn.ModuleList(features).eval() 
    def forward(self, x, layers=[]):
        order = np.argsort(layers)
        _results, results = [], []
        for ix,model in enumerate(self.features):
            x = model(x)
            if ix in layers: _results.append(x)
        for o in order: results.append(_results[o])
        return results if layers is not [] else x
# %%
vgg = vgg19_modified().to(device)
# %%
imgs = [Image.open(path).resize((64,64)).convert('RGB') for path in ['style_image.png', '60.jpg']]
style_image, content_image = [preprocess(img).to(device)[None] for img in imgs]
# %%
opt_img = content_image.data.clone()
opt_img.requires_grad = True
# %%
style_layers = [0, 5, 10, 19, 28] 
content_layers = [21]
loss_layers = style_layers + content_layers
# %%
loss_fns = [GramMSELoss()] * len(style_layers) + [nn.MSELoss()] * len(content_layers)
loss_fns = [loss_fn.to(device) for loss_fn in loss_fns]
# %%
style_weights = [1000/n**2 for n in [64,128,256,512,512]] 
content_weights = [1]
weights = style_weights + content_weights
# %%
style_targets = [GramMatrix()(A).detach() for A in vgg(style_image, style_layers)]
content_targets = [A.detach() for A in vgg(content_image, content_layers)]
targets = style_targets + content_targets
# %%
max_iters = 5
optimizer = optim.LBFGS([opt_img])
log = Report(max_iters)
# %%
iters = 0
while iters < max_iters:
    def closure():
        global iters
        iters += 1
        optimizer.zero_grad()
        out = vgg(opt_img, loss_layers)
        layer_losses = [weights[a] * loss_fns[a](A, targets[a]) for a,A in enumerate(out)]
        loss = sum(layer_losses)
        loss.backward()
        log.record(pos=iters, loss=loss, end='\r')
        return loss
    optimizer.step(closure)
# %%
log.plot(log=True)
# %%
with torch.no_grad():
    out_img = postprocess(opt_img[0]).permute(1,2,0)
show(out_img)
