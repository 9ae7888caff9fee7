# source: variant of https://github.com/mosaicml/composer/pull/1240
# scenario: imported_module
# cause: shared_subgraph_multiple_backward
# root: file composer_trainer.py line 73
# expert: the model's loss() returns a tuple of two losses computed from the same forward pass, and the trainer's _train_microbatch (in composer_trainer.py) calls backward() on each loss in turn, so the second backward walks the shared backbone graph that the first one freed. The PR's fix is in the trainer: sum the individual losses into one microbatch loss and call backward() once
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from composer_trainer import ComposerModel, Trainer
torch.manual_seed(0)
# %%
class MultiTaskNet(ComposerModel):
    """A backbone with two heads; loss() returns one loss per head."""

    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cls_head = nn.Linear(8, num_classes)
        self.aux_head = nn.Linear(8, 1)

    def forward(self, batch):
        inputs, _, _ = batch
        feats = self.backbone(inputs)
        return self.cls_head(feats), self.aux_head(feats).squeeze(1)

    def loss(self, outputs, batch):
        _, targets, aux_targets = batch
        logits, aux = outputs
        return F.cross_entropy(logits, targets), F.mse_loss(aux, aux_targets)
# %%
model = MultiTaskNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
images = torch.randn(8, 3, 16, 16)
labels = torch.randint(0, 5, (8,))
aux_labels = torch.randn(8)
train_dataloader = [(images, labels, aux_labels)]

trainer = Trainer(model=model, train_dataloader=train_dataloader, max_duration=2, optimizers=optimizer)
# %%
trainer.fit()
