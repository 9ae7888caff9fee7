import torch
import torch.nn as nn


class RALoss(nn.Module):
    def forward(self, weights_max, weights_org):
        return torch.relu(weights_org.mean() - weights_max.mean() + 0.1)


def get_loss():
    return RALoss()


class LipFD(nn.Module):
    def __init__(self, dim=8):
        super(LipFD, self).__init__()
        self.encoder = nn.Linear(12, dim)          # stands in for the frozen CLIP image encoder
        self.backbone = nn.Linear(6 + dim, dim)     # region-aware backbone over the crops
        self.attn = nn.Linear(dim, 1)
        self.fc = nn.Linear(dim, 1)

    def get_features(self, x):
        return self.encoder(x)

    def forward(self, crops, feature):
        feats, weights = [], []
        for region in crops:
            for crop in region:
                f = self.backbone(torch.cat([crop, feature], dim=1))
                feats.append(f)
                weights.append(torch.sigmoid(self.attn(f)))
        weights = torch.stack(weights, dim=1)
        feats = torch.stack(feats, dim=1)
        pooled = (weights * feats).sum(1) / weights.sum(1)
        weights_max = weights.max(dim=1).values
        weights_org = weights[:, 0]
        return self.fc(pooled), weights_max, weights_org


def build_model(arch):
    return LipFD()
