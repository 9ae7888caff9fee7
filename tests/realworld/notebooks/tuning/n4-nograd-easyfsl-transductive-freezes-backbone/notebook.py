# source: https://github.com/sicara/easy-few-shot-learning/issues/55
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 4 line 2
# expert: TransductiveFinetuning's constructor calls self.backbone.requires_grad_(False) on the very model the classical-training cell trains (the library docstring warns it freezes the backbone), so every loss has no grad_fn; keep PrototypicalNetworks as the validation classifier during classical training and wrap the trained backbone in TransductiveFinetuning only afterwards, for evaluation
# %%
import random
from statistics import mean

import numpy as np
import torch
from torch import nn, Tensor

random_seed = 0
np.random.seed(random_seed)
torch.manual_seed(random_seed)
random.seed(random_seed)
DEVICE = "cpu"
# %%
# easyfsl.methods, reduced: the few-shot classifiers used for validation
class FewShotClassifier(nn.Module):
    def __init__(self, backbone: nn.Module):
        super().__init__()
        self.backbone = backbone
        self.prototypes = torch.tensor(())
        self.support_features = torch.tensor(())
        self.support_labels = torch.tensor(())

    def process_support_set(self, support_images, support_labels):
        self.support_features = self.backbone.forward(support_images)
        self.support_labels = support_labels
        n_way = len(torch.unique(support_labels))
        self.prototypes = torch.cat([self.support_features[torch.nonzero(support_labels == label)].mean(0)
                                     for label in range(n_way)])

    def l2_distance_to_prototypes(self, samples: Tensor) -> Tensor:
        return -torch.cdist(samples, self.prototypes)


class PrototypicalNetworks(FewShotClassifier):
    def forward(self, query_images: Tensor) -> Tensor:
        return self.l2_distance_to_prototypes(self.backbone.forward(query_images))


class TransductiveFinetuning(FewShotClassifier):
    """WARNING: As is, it is incompatible with episodic training because we freeze the backbone
    to perform fine-tuning."""

    def __init__(self, *args, fine_tuning_steps: int = 5, fine_tuning_lr: float = 5e-5, **kwargs):
        super().__init__(*args, **kwargs)
        # Since we fine-tune the prototypes we need to make them leaf variables
        # i.e. we need to freeze the backbone.
        self.backbone.requires_grad_(False)
        self.fine_tuning_steps = fine_tuning_steps
        self.fine_tuning_lr = fine_tuning_lr

    def forward(self, query_images: Tensor) -> Tensor:
        query_features = self.backbone.forward(query_images)
        with torch.enable_grad():
            self.prototypes.requires_grad_()
            optimizer = torch.optim.Adam([self.prototypes], lr=self.fine_tuning_lr)
            for _ in range(self.fine_tuning_steps):
                support_cross_entropy = nn.functional.cross_entropy(
                    self.l2_distance_to_prototypes(self.support_features), self.support_labels)
                probs = self.l2_distance_to_prototypes(query_features).softmax(-1)
                query_conditional_entropy = -(probs * probs.clamp_min(1e-8).log()).sum(-1).mean()
                loss = support_cross_entropy + query_conditional_entropy
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        return self.l2_distance_to_prototypes(query_features).detach()
# %%
# CUB replaced by small random tensors
n_classes = 6
train_images = torch.randn(32, 3, 8, 8)
train_labels = torch.randint(0, n_classes, (32,))
train_loader = [(train_images[i:i + 8], train_labels[i:i + 8]) for i in range(0, 32, 8)]
# %%
class ResNetLike(nn.Module):
    """stands in for easyfsl.modules.resnet12(use_fc=True, num_classes=...)"""
    def __init__(self, num_classes):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, num_classes)
        self.use_fc = True

    def set_use_fc(self, use_fc: bool):
        self.use_fc = use_fc

    def forward(self, x):
        x = self.trunk(x)
        return self.fc(x) if self.use_fc else x


model = ResNetLike(num_classes=n_classes).to(DEVICE)
# %%
n_way, n_shot, n_query = 3, 2, 2
few_shot_classifier = TransductiveFinetuning(model).to(DEVICE)
# %%
from torch.optim import SGD

LOSS_FUNCTION = nn.CrossEntropyLoss()
n_epochs = 2
learning_rate = 1e-01
train_optimizer = SGD(model.parameters(), lr=learning_rate, momentum=0.9, weight_decay=5e-4)


def training_epoch(model_: nn.Module, data_loader, optimizer):
    all_loss = []
    model_.train()
    for images, labels in data_loader:
        optimizer.zero_grad()

        loss = LOSS_FUNCTION(model_(images.to(DEVICE)), labels.to(DEVICE))
        loss.backward()
        optimizer.step()

        all_loss.append(loss.item())
    return mean(all_loss)
# %%
for epoch in range(n_epochs):
    print(f"Epoch {epoch}")
    average_loss = training_epoch(model, train_loader, train_optimizer)
    print(average_loss)
