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
n_way, n_shot, n_query = 2, 3, 2
# %%
# easyfsl.methods, reduced
class FewShotClassifier(nn.Module):
    def __init__(self, backbone: nn.Module):
        super().__init__()
        self.backbone = backbone
        self.prototypes = torch.tensor(())
        self.support_features = torch.tensor(())
        self.support_labels = torch.tensor(())

    def store_support_set_data(self, support_images, support_labels):
        self.support_labels = support_labels
        self.support_features = self.backbone.forward(support_images)
        self.prototypes = torch.cat([self.support_features[torch.nonzero(support_labels == label)].mean(0)
                                     for label in range(len(torch.unique(support_labels)))])

    def process_support_set(self, support_images, support_labels):
        self.store_support_set_data(support_images, support_labels)

    def cosine_distance_to_prototypes(self, samples) -> Tensor:
        return nn.functional.normalize(samples, dim=1) @ nn.functional.normalize(self.prototypes, dim=1).T


class PrototypicalNetworks(FewShotClassifier):
    def forward(self, query_images: Tensor) -> Tensor:
        return -torch.cdist(self.backbone.forward(query_images), self.prototypes)


class Finetune(FewShotClassifier):
    def __init__(self, *args, fine_tuning_steps: int = 3, fine_tuning_lr: float = 1e-3, **kwargs):
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
                support_logits = self.cosine_distance_to_prototypes(self.support_features)
                loss = nn.functional.cross_entropy(support_logits, self.support_labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        return self.cosine_distance_to_prototypes(query_features).detach()
# %%
# pf_ILD tasks replaced by random few-shot episodes
def make_task():
    support_images = torch.randn(n_way * n_shot, 3, 8, 8)
    support_labels = torch.arange(n_way).repeat_interleave(n_shot)
    query_images = torch.randn(n_way * n_query, 3, 8, 8)
    query_labels = torch.arange(n_way).repeat_interleave(n_query)
    return support_images, support_labels, query_images, query_labels, None


train_loader = [make_task() for _ in range(3)]
# %%
# stands in for resnet50(num_classes=2) loaded from save_model/resnet50.pt
convolutional_network = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                      nn.Flatten(), nn.Linear(8, 2)).to(DEVICE)
few_shot_classifier = PrototypicalNetworks(convolutional_network).to(DEVICE)
# %%
from torch.optim import SGD

LOSS_FUNCTION = nn.CrossEntropyLoss()
train_optimizer = SGD(few_shot_classifier.parameters(), lr=1e-2, momentum=0.9, weight_decay=5e-4)


def training_epoch(model, data_loader, optimizer):
    all_loss = []
    model.train()
    for episode_index, (support_images, support_labels, query_images, query_labels, _) in enumerate(data_loader):
        optimizer.zero_grad()
        model.process_support_set(support_images.to(DEVICE), support_labels.to(DEVICE))
        classification_scores = model(query_images.to(DEVICE))

        loss = LOSS_FUNCTION(classification_scores, query_labels.to(DEVICE))
        loss.backward()
        optimizer.step()

        all_loss.append(loss.item())
    return mean(all_loss)
# %%
for epoch in range(2):
    print(f"Epoch {epoch}")
    average_loss = training_epoch(few_shot_classifier, train_loader, train_optimizer)

# the trained backbone is wrapped in Finetune only for evaluation
finetune_classifier = Finetune(convolutional_network).to(DEVICE)
