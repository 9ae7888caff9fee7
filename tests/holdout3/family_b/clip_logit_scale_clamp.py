# cause: leaf_inplace
# line: 35
# why: logit_scale is an nn.Parameter (a leaf requiring grad), and clamp_() on it after the optimizer step runs outside torch.no_grad().
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyCLIP(nn.Module):
    def __init__(self, d_img=20, d_txt=12, d=16):
        super().__init__()
        self.img_proj = nn.Linear(d_img, d)
        self.txt_proj = nn.Linear(d_txt, d)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, img, txt):
        zi = F.normalize(self.img_proj(img), dim=-1)
        zt = F.normalize(self.txt_proj(txt), dim=-1)
        return self.logit_scale.exp() * zi @ zt.t()


model = TinyCLIP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
for step in range(3):
    img, txt = torch.randn(8, 20), torch.randn(8, 12)
    logits = model(img, txt)
    labels = torch.arange(8)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.logit_scale.clamp_(0, math.log(100))
    print(step, loss.item(), model.logit_scale.item())
