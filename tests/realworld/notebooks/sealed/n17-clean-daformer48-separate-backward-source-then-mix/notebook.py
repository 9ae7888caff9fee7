# source: https://github.com/lhoyer/DAFormer/issues/48 (DACS.forward_train of mmseg/models/uda/dacs.py: clean_loss.backward(retain_graph=self.enable_fdist), feat_loss.backward(), then pseudo-labels from the EMA teacher and mix_loss.backward(), with one optimizer step per iteration; split into notebook cells with a tiny conv segmentor on random source/target images, the class-mix transform reduced to a per-pixel class mask, run for two iterations)
# scenario: clean
# order: 0 1 2 3 4 2 3 4
# expert: nothing to fix: the source loss, the ImageNet feature-distance loss and the mixed-image loss are backpropagated separately; clean_loss.backward keeps the source graph (retain_graph=True) only because feat_loss still needs src_feat, the feature-distance teacher runs under no_grad, the pseudo-labels come from detached EMA logits, and the mixed loss is built on a fresh forward pass, so no backward revisits a freed graph and re-running the iteration cells recomputes everything.
# %%
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

num_classes = 4


class Segmentor(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.decode_head = nn.Conv2d(8, num_classes, 1)

    def extract_feat(self, img):
        return [self.backbone(img)]

    def encode_decode(self, img):
        return self.decode_head(self.extract_feat(img)[-1])

    def forward_train(self, img, gt, seg_weight=None, return_feat=False):
        feat = self.extract_feat(img)
        logits = self.decode_head(feat[-1])
        loss = F.cross_entropy(logits, gt, reduction='none')
        if seg_weight is not None:
            loss = loss * seg_weight
        losses = {'decode.loss_seg': loss.mean()}
        if return_feat:
            losses['features'] = feat
        return losses


model = Segmentor()
ema_model = copy.deepcopy(model)
imnet_model = copy.deepcopy(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-5)

img = torch.randn(2, 3, 8, 8)
gt_semantic_seg = torch.randint(0, num_classes, (2, 8, 8))
target_img = torch.randn(2, 3, 8, 8)
alpha, pseudo_threshold, fdist_lambda, enable_fdist = 0.99, 0.968, 0.005, True
local_iter = 0
# %%
def _init_ema_weights():
    for param in ema_model.parameters():
        param.detach_()
    for p_ema, p in zip(ema_model.parameters(), model.parameters()):
        p_ema.data[:] = p.data[:].clone()

def _update_ema(iter):
    alpha_teacher = min(1 - 1 / (iter + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data[:] = alpha_teacher * ema_param[:].data[:] + (1 - alpha_teacher) * param[:].data[:]

def calc_feat_dist(img, feat):
    with torch.no_grad():
        imnet_model.eval()
        feat_imnet = imnet_model.extract_feat(img)
        feat_imnet = [f.detach() for f in feat_imnet]
    feat_dist = torch.mean(torch.norm(feat[-1] - feat_imnet[-1], dim=1, p=2))
    return fdist_lambda * feat_dist

def class_mix(mask, source, target):
    return mask * source + (1 - mask) * target
# %%
# Train on source images
optimizer.zero_grad()
if local_iter == 0:
    _init_ema_weights()
if local_iter > 0:
    _update_ema(local_iter)

clean_losses = model.forward_train(img, gt_semantic_seg, return_feat=True)
src_feat = clean_losses.pop('features')
clean_loss = sum(clean_losses.values())
clean_loss.backward(retain_graph=enable_fdist)

# ImageNet feature distance
if enable_fdist:
    feat_loss = calc_feat_dist(img, src_feat)
    feat_loss.backward()
print('src', clean_loss.item(), feat_loss.item())
# %%
# Generate pseudo-label
ema_logits = ema_model.encode_decode(target_img)
ema_softmax = torch.softmax(ema_logits.detach(), dim=1)
pseudo_prob, pseudo_label = torch.max(ema_softmax, dim=1)
ps_large_p = pseudo_prob.ge(pseudo_threshold).long() == 1
pseudo_weight = torch.sum(ps_large_p).item() / pseudo_label.numel()
pseudo_weight = pseudo_weight * torch.ones(pseudo_prob.shape)

# Apply mixing (class mix: the pixels of half of the source classes are pasted on the target)
classes = torch.randperm(num_classes)[:num_classes // 2]
mix_mask = torch.isin(gt_semantic_seg, classes).float()
mixed_img = class_mix(mix_mask[:, None], img, target_img)
mixed_lbl = class_mix(mix_mask, gt_semantic_seg.float(), pseudo_label.float()).long()
pseudo_weight = class_mix(mix_mask, torch.ones_like(pseudo_weight), pseudo_weight)
# %%
# Train on mixed images
mix_losses = model.forward_train(mixed_img, mixed_lbl, pseudo_weight, return_feat=True)
mix_losses.pop('features')
mix_loss = sum(mix_losses.values())
mix_loss.backward()
optimizer.step()
local_iter += 1
print('iter', local_iter, 'mix', mix_loss.item())
