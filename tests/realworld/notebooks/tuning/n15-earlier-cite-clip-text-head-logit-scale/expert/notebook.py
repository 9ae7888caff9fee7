# %%
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from typing import List
torch.manual_seed(0)
DEVICE = 'cpu'


class _TinyCLIP(nn.Module):
    """stand-in for the model returned by clip.load(arch): visual tower, text tower, logit_scale"""
    def __init__(self, width=16, embed_dim=8, vocab=64):
        super().__init__()
        self.visual = nn.Sequential(nn.Conv2d(3, width, 4, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                    nn.Flatten(), nn.Linear(width, embed_dim))
        self.token_embedding = nn.Embedding(vocab, width)
        self.text_projection = nn.Linear(width, embed_dim)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))
        self.dtype = torch.float32

    def encode_text(self, text):
        return self.text_projection(self.token_embedding(text).mean(1))


class clip:
    """stand-in for the openai clip package"""
    @staticmethod
    def load(arch, device='cpu'):
        with torch.random.fork_rng():
            torch.manual_seed(1)  # the same "pretrained" weights on every load
            model = _TinyCLIP().to(device)
        return model, None

    @staticmethod
    def tokenize(texts, context_length=8):
        ids = [[sum(map(ord, w)) % 64 for w in t.split()][:context_length] for t in texts]
        return torch.tensor([x + [0] * (context_length - len(x)) for x in ids])
# %%
class CLIPImageBackbone(nn.Module):
    """CLIP image backbone."""

    def __init__(self, arch: str, fix: bool = True, proj: bool = True, float32: bool = False):
        super().__init__()
        model, _ = clip.load(arch, device=DEVICE)
        if float32:
            model = model.type(torch.float32)
        self.model = model.visual
        self.dtype = model.dtype
        for param in self.model.parameters():
            param.requires_grad = not fix

    def forward(self, x):
        return self.model(x.type(self.dtype))


class ClsHead(nn.Module):
    """what mmcls' ClsHead provides: the cross-entropy loss dict"""
    def loss(self, cls_score, gt_label, **kwargs):
        return {'loss': F.cross_entropy(cls_score, gt_label)}


class CLIPTextHead(ClsHead):
    """CLIP text head."""

    def __init__(self,
                 arch,
                 texts: List[str] = None,
                 **kwargs):
        super().__init__(**kwargs)
        model, _ = clip.load(arch, device=DEVICE)
        self.texts = clip.tokenize(texts).to(DEVICE)
        with torch.no_grad():
            self.logit_scale = model.logit_scale.exp()
            self.weights = model.encode_text(self.texts)

    def pre_logits(self, x):
        if isinstance(x, tuple):
            x = x[-1]
        if isinstance(x, list):
            x = x[-1]  # cls token
        return x

    def forward(self, x):
        x = self.pre_logits(x)
        x = x / x.norm(dim=-1, keepdim=True)
        weights = self.weights / self.weights.norm(dim=-1, keepdim=True)
        cls_score = self.logit_scale * x @ weights.t()
        return cls_score

    def forward_train(self, x, gt_label, **kwargs):
        cls_score = self.forward(x)
        losses = self.loss(cls_score, gt_label, **kwargs)
        return losses
# %%
arch = 'ViT-B/16'
TEXTS = ['Well differentiated tubular adenocarcinoma',
         'Moderately differentiated tubular adenocarcinoma',
         'Poorly differentiated adenocarcinoma']
prompt = '{}'


class ImageClassifier(nn.Module):
    """mmcls ImageClassifier reduced to backbone + head"""
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone, self.head = backbone, head

    def forward_train(self, img, gt_label):
        return self.head.forward_train(self.backbone(img), gt_label)


model = ImageClassifier(
    backbone=CLIPImageBackbone(arch=arch, fix=False),
    head=CLIPTextHead(arch=arch, texts=[prompt.format(t) for t in TEXTS]))
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
# %%
# random stand-ins for the PatchGastric training patches
imgs = torch.rand(12, 3, 16, 16)
labels = torch.randint(0, 3, (12,))
batch_size = 4
# %%
model.train()
for it in range(3):
    img = imgs[it * batch_size:(it + 1) * batch_size]
    gt_label = labels[it * batch_size:(it + 1) * batch_size]
    losses = model.forward_train(img, gt_label)
    loss = losses['loss']
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f'iter {it}: loss {loss.item():.4f}')
