# source: https://github.com/dillondavis/RecurrentAttentionConvolutionalNeuralNetwork/issues/4
# style: vision
# cause: non_scalar_backward
# line: 38
# expert: the pairwise rank loss returns one value per sample once batch_size > 1; reduce it to a scalar (mean over the batch) before backward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class RACNN(nn.Module):
    """Three scales; each scale has its own classifier (APN crops replaced by pooling)."""

    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.classifiers = nn.ModuleList([nn.Linear(8, num_classes) for _ in range(3)])

    def forward(self, x):
        scores = []
        for i, clf in enumerate(self.classifiers):
            xi = F.avg_pool2d(x, 2 ** i) if i else x
            scores.append(clf(self.features(xi).flatten(1)))
        return scores


class Manager:
    def __init__(self, model, margin=0.05):
        self.model = model
        self.margin = margin
        self.criterion_class = nn.CrossEntropyLoss()

    def criterion_rank(self, scores1, scores2, target):
        ps1 = F.softmax(scores1, dim=1).gather(1, target.long().view(-1, 1))
        ps2 = F.softmax(scores2, dim=1).gather(1, target.long().view(-1, 1))
        return torch.clamp(ps1 - ps2 + self.margin, min=0)

    def do_batch(self, optimizer, batch, label, optimize_class=False):
        self.model.zero_grad()
        scores = self.model(batch)
        if optimize_class:
            loss = sum(self.criterion_class(s, label) for s in scores)
            loss.backward()
        else:
            for i in range(1, len(scores)):
                retain_graph = i < len(scores) - 1
                self.criterion_rank(scores[i - 1], scores[i], label).backward(retain_graph=retain_graph)
        optimizer.step()


model = RACNN()
manager = Manager(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
batch_size = 4
for step in range(2):
    batch = torch.randn(batch_size, 3, 16, 16)
    label = torch.randint(0, 5, (batch_size,))
    manager.do_batch(optimizer, batch, label, optimize_class=(step == 0))
print("done")
