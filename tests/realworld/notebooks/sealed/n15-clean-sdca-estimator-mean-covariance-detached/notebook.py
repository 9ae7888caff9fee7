# source: https://github.com/BIT-DA/SDCA/issues/4 (semantic_dist_estimator of core/utils/semantic_dist_estimator.py, PixelContrastiveLoss of core/utils/loss.py and the iteration of train_sdca.py, on CPU with a tiny feature extractor and classifier and random source/target images and labels; the training cell is run twice)
# scenario: clean
# order: 0 1 2 3 3
# expert: none needed: the estimator kept across cells stores running class means and variances built from src_feat.detach() and re-detaches them on every update, and the loss uses Mean.detach() / CoVariance.detach(); each iteration's loss only reaches that iteration's features, so re-running the training cell backpropagates fresh graphs only
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
torch.manual_seed(0)

cfg = SimpleNamespace(MODEL=SimpleNamespace(NUM_CLASSES=4), INPUT=SimpleNamespace(IGNORE_LABEL=255),
                      SOLVER=SimpleNamespace(TAU=1.0, DELTA=0.3, LAMBDA_FEAT=0.1))
feature_extractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2, padding=1))
classifier = nn.Conv2d(8, cfg.MODEL.NUM_CLASSES, 1)
optimizer_fea = torch.optim.SGD(feature_extractor.parameters(), lr=0.01, momentum=0.9)
optimizer_cls = torch.optim.SGD(classifier.parameters(), lr=0.01, momentum=0.9)
ce_criterion = nn.CrossEntropyLoss(ignore_index=255)

src_inputs = torch.rand(4, 2, 3, 16, 16)
src_labels = torch.randint(0, cfg.MODEL.NUM_CLASSES, (4, 2, 16, 16))
src_labels[:, :, :2] = 255
tgt_inputs = torch.rand(4, 2, 3, 16, 16)
# %%
class semantic_dist_estimator():
    def __init__(self, feature_num, cfg):
        self.cfg = cfg
        self.class_num = cfg.MODEL.NUM_CLASSES
        # init mean and covariance
        self.CoVariance = torch.zeros(self.class_num, feature_num)
        self.Mean = torch.zeros(self.class_num, feature_num)
        self.Amount = torch.zeros(self.class_num)

    def update(self, features, labels):
        mask = (labels != self.cfg.INPUT.IGNORE_LABEL)
        # remove IGNORE_LABEL pixels
        labels = labels[mask]
        features = features[mask]

        N, A = features.size()
        C = self.class_num

        NxCxA_Features = features.view(N, 1, A).expand(N, C, A)
        onehot = torch.zeros(N, C)
        onehot.scatter_(1, labels.view(-1, 1), 1)
        NxCxA_onehot = onehot.view(N, C, 1).expand(N, C, A)

        features_by_sort = NxCxA_Features.mul(NxCxA_onehot)

        Amount_CxA = NxCxA_onehot.sum(0)
        Amount_CxA[Amount_CxA == 0] = 1

        mean_CxA = features_by_sort.sum(0) / Amount_CxA

        var_temp = features_by_sort - mean_CxA.expand(N, C, A).mul(NxCxA_onehot)
        var_temp = var_temp.pow(2).sum(0).div(Amount_CxA)

        sum_weight_CV = onehot.sum(0).view(C, 1).expand(C, A)
        weight_CV = sum_weight_CV.div(sum_weight_CV + self.Amount.view(C, 1).expand(C, A))
        weight_CV[weight_CV != weight_CV] = 0

        additional_CV = weight_CV.mul(1 - weight_CV).mul((self.Mean - mean_CxA).pow(2))

        self.CoVariance = (self.CoVariance.mul(1 - weight_CV) + var_temp.mul(
            weight_CV)).detach() + additional_CV.detach()

        self.Mean = (self.Mean.mul(1 - weight_CV) + mean_CxA.mul(weight_CV)).detach()

        self.Amount = self.Amount + onehot.sum(0)


class PixelContrastiveLoss(nn.Module):
    def __init__(self, cfg):
        super(PixelContrastiveLoss, self).__init__()
        self.cfg = cfg

    def forward(self, Mean, CoVariance, feat, labels):
        assert not Mean.requires_grad
        assert not CoVariance.requires_grad
        assert not labels.requires_grad
        assert feat.requires_grad

        # remove IGNORE_LABEL pixels
        mask = (labels != self.cfg.INPUT.IGNORE_LABEL)
        labels = labels[mask]
        feat = feat[mask]

        feat = F.normalize(feat, p=2, dim=1)
        Mean = F.normalize(Mean, p=2, dim=1)
        CoVariance = F.normalize(CoVariance, p=2, dim=1)

        temp1 = feat.mm(Mean.permute(1, 0).contiguous())
        CoVariance = CoVariance / self.cfg.SOLVER.TAU
        temp2 = 0.5 * feat.pow(2).mm(CoVariance.permute(1, 0).contiguous())

        logits = temp1 + temp2
        logits = logits / self.cfg.SOLVER.TAU

        ce_loss = nn.CrossEntropyLoss()(logits, labels)
        pcl_loss = 0.5 * torch.sum(feat.pow(2).mul(CoVariance[labels]), dim=1).mean() / self.cfg.SOLVER.TAU

        return ce_loss + pcl_loss
# %%
feat_estimator = semantic_dist_estimator(feature_num=8, cfg=cfg)
pcl_criterion = PixelContrastiveLoss(cfg=cfg)
iteration = 0
# %%
for _ in range(2):
    src_input, src_label, tgt_input = src_inputs[iteration % 4], src_labels[iteration % 4], tgt_inputs[iteration % 4]
    iteration += 1
    optimizer_fea.zero_grad()
    optimizer_cls.zero_grad()
    src_size = src_input.shape[-2:]
    src_feat = feature_extractor(src_input)
    src_out = classifier(src_feat)
    tgt_feat = feature_extractor(tgt_input)
    tgt_out = classifier(tgt_feat)
    tgt_out_softmax = F.softmax(tgt_out, dim=1)

    # supervision loss
    src_pred = F.interpolate(src_out, size=src_size, mode='bilinear', align_corners=True)
    loss_sup = ce_criterion(src_pred, src_label)

    # source mask: downsample the ground-truth label
    B, A, Hs, Ws = src_feat.size()
    src_mask = F.interpolate(src_label.unsqueeze(0).float(), size=(Hs, Ws), mode='nearest').squeeze(0).long()
    src_mask = src_mask.contiguous().view(B * Hs * Ws, )
    # target mask: constant threshold
    _, _, Ht, Wt = tgt_feat.size()
    tgt_out_maxvalue, tgt_mask = torch.max(tgt_out_softmax, dim=1)
    for i in range(cfg.MODEL.NUM_CLASSES):
        tgt_mask[(tgt_out_maxvalue < cfg.SOLVER.DELTA) * (tgt_mask == i)] = 255
    tgt_mask = tgt_mask.contiguous().view(B * Ht * Wt, )

    src_feat = src_feat.permute(0, 2, 3, 1).contiguous().view(B * Hs * Ws, A)
    tgt_feat = tgt_feat.permute(0, 2, 3, 1).contiguous().view(B * Ht * Wt, A)
    # update feature-level statistics
    feat_estimator.update(features=src_feat.detach(), labels=src_mask)

    # contrastive loss on both domains
    loss_feat = pcl_criterion(Mean=feat_estimator.Mean.detach(),
                              CoVariance=feat_estimator.CoVariance.detach(),
                              feat=src_feat,
                              labels=src_mask) \
                + pcl_criterion(Mean=feat_estimator.Mean.detach(),
                                CoVariance=feat_estimator.CoVariance.detach(),
                                feat=tgt_feat,
                                labels=tgt_mask)

    loss = loss_sup + cfg.SOLVER.LAMBDA_FEAT * loss_feat
    loss.backward()

    optimizer_fea.step()
    optimizer_cls.step()
    print(f'iter {iteration}: loss_sup {loss_sup.item():.4f} loss_feat {loss_feat.item():.4f}')
