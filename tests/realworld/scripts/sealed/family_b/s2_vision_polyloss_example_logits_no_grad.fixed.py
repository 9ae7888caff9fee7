# source: https://github.com/abhuse/polyloss-pytorch/issues/4
# style: vision
# cause: no_grad_fn
# line: 35
# expert: the example's stand-in logits must track gradients: create them with torch.rand(..., requires_grad=True) (in real use, pass the model's output)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Poly1CrossEntropyLoss(nn.Module):
    def __init__(self, num_classes, epsilon=1.0, reduction="none", weight=None):
        super(Poly1CrossEntropyLoss, self).__init__()
        self.num_classes = num_classes
        self.epsilon = epsilon
        self.reduction = reduction
        self.weight = weight

    def forward(self, logits, labels):
        labels_onehot = F.one_hot(labels, num_classes=self.num_classes).to(device=logits.device, dtype=logits.dtype)
        pt = torch.sum(labels_onehot * F.softmax(logits, dim=-1), dim=-1)
        CE = F.cross_entropy(input=logits, target=labels, reduction='none', weight=self.weight)
        poly1 = CE + self.epsilon * (1 - pt)
        if self.reduction == "mean":
            poly1 = poly1.mean()
        elif self.reduction == "sum":
            poly1 = poly1.sum()
        return poly1


batch_size = 10
num_classes = 5
logits = torch.rand([batch_size, num_classes], requires_grad=True)
labels = torch.randint(0, num_classes, [batch_size])
loss = Poly1CrossEntropyLoss(num_classes=num_classes, reduction='mean')(logits, labels)
loss.backward()
print(loss.item(), logits.grad.shape)
