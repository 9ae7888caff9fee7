# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class LipFD(nn.Module):
    def __init__(self, dim=8):
        super(LipFD, self).__init__()
        self.encoder = nn.Linear(12, dim)
        self.backbone = nn.Linear(6 + dim, dim)
        self.fc = nn.Linear(dim, 1)

    def get_features(self, x):
        return self.encoder(x)

    def forward(self, crops, feature):
        feats = torch.stack([self.backbone(torch.cat([c, feature], dim=1)) for c in crops], dim=1)
        return self.fc(feats.mean(1))

model = LipFD()
# %%
fix_encoder = True
if fix_encoder:
    params = []
    for name, p in model.named_parameters():
        if name.split(".")[0] in ["encoder"]:
            p.requires_grad = False
        else:
            p.requires_grad = True
    params = model.parameters()
optimizer = torch.optim.AdamW(params, lr=2e-5, betas=(0.9, 0.999), weight_decay=0.0)
# %%
criterion = nn.BCEWithLogitsLoss()
x = torch.randn(4, 12)
crops = [torch.randn(4, 6) for _ in range(3)]
label = torch.tensor([0., 1., 1., 0.])
for step in range(2):
    output = model(crops, model.get_features(x)).view(-1)
    loss = criterion(output, label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
