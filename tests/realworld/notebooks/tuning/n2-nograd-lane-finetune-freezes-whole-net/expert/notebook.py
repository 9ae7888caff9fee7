# expert fix of n2-nograd-lane-finetune-freezes-whole-net
# %%
import torch
import torch.nn as nn
import numpy as np
torch.manual_seed(0)

class parsingNet(nn.Module):
    def __init__(self, size=(32, 64), pretrained=True, backbone='18', cls_dim=(11, 6, 4), use_aux=False):
        super(parsingNet, self).__init__()
        self.size = size
        self.cls_dim = cls_dim  # (num_gridding, num_cls_per_lane, num_of_lanes)
        self.total_dim = np.prod(cls_dim)
        # stand-in for resnet(backbone, pretrained=pretrained)
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                   nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.pool = nn.Conv2d(16, 4, 1)
        self.cls = nn.Sequential(nn.Linear(4 * 8 * 16, 64), nn.ReLU(), nn.Linear(64, int(self.total_dim)))

    def forward(self, x):
        fea = self.pool(self.model(x)).view(-1, 4 * 8 * 16)
        group_cls = self.cls(fea).view(-1, *self.cls_dim)
        return group_cls

net = parsingNet()
# %%
# finetune from a checkpoint: only use backbone parameters, and freeze the model
finetune_ckpt = {'model': {k: v.clone() for k, v in net.state_dict().items()}}  # stands for torch.load(cfg.finetune)
state_all = finetune_ckpt['model']
state_clip = {}  # only use backbone parameters
for k,v in state_all.items():
    if 'model' in k:
        state_clip[k] = v
net.load_state_dict(state_clip, strict=False)
for param in net.model.parameters():
    param.requires_grad = False
# %%
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1, momentum=0.9, weight_decay=1e-4)
criterion = nn.CrossEntropyLoss()
imgs = torch.randn(4, 3, 32, 64)
cls_label = torch.randint(0, 11, (4, 6, 4))
# %%
net.train()
for b_idx in range(3):
    cls_out = net(imgs)
    loss = criterion(cls_out, cls_label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(b_idx, loss.item())
