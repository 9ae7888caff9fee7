# source: https://github.com/hushell/sib_meta_learn/issues/3
# scenario: clean
# expert: clean: the pretrained feature extractor is run once under torch.no_grad() in a setup cell, so the features carry no graph; the classifier trained in the later cell builds its own graph every step, and since only the classifier is trained (as in the maintainer's answer) nothing needs gradients through the extractor
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class FeatureExtractor(nn.Module):  # stands in for the pretrained backbone that sib loads
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())

    def forward(self, x):
        return self.net(x)

netFeat = FeatureExtractor()
netFeat.eval()
support_images = torch.rand(20, 3, 16, 16)
support_labels = torch.arange(5).repeat(4)
query_images = torch.rand(10, 3, 16, 16)
query_labels = torch.arange(5).repeat(2)
# %%
with torch.no_grad():
    support_feat = netFeat(support_images)
    query_feat = netFeat(query_images)
print(support_feat.requires_grad, query_feat.requires_grad)
# %%
classifier = nn.Linear(32, 5)
optimizer = torch.optim.SGD(classifier.parameters(), lr=0.1)
for step in range(10):
    logits = classifier(torch.cat([support_feat, query_feat]))
    loss = F.cross_entropy(logits, torch.cat([support_labels, query_labels]))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(step, loss.item())
