# source: https://github.com/vturrisi/solo-learn/issues/135 (BaseMethod.base_forward / _base_shared_step / training_step of solo/methods/base.py and SimCLR.training_step with its simclr_loss_func, as plain functions over a small CNN backbone, on two random augmented views of a batch; run for a few steps, the training cell run twice)
# scenario: clean
# order: 0 1 2 3 3
# expert: nothing to fix: the online linear classifier is fed feats.detach() so its cross-entropy only trains the classifier, while the SimCLR loss is computed on the same (not detached) feats through the projector and trains the backbone; detach is not in place, both losses are built on fresh forward passes each step and summed into one backward.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

num_classes, proj_output_dim, temperature = 10, 16, 0.2
backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
classifier = nn.Linear(8, num_classes)
projector = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, proj_output_dim))
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(projector.parameters()) +
                            list(classifier.parameters()), lr=0.1, momentum=0.9)

images = torch.randn(8, 3, 8, 8)
targets = torch.randint(0, num_classes, (8,))
indexes = torch.arange(8)
def augment(x):
    return x + 0.1 * torch.randn_like(x)
# %%
def base_forward(X):
    feats = backbone(X)
    logits = classifier(feats.detach())
    return {"logits": logits, "feats": feats}

def _base_shared_step(X, targets):
    out = base_forward(X)
    logits = out["logits"]
    loss = F.cross_entropy(logits, targets, ignore_index=-1)
    acc1 = (logits.argmax(1) == targets).float().mean()
    return {**out, "loss": loss, "acc1": acc1}

def simclr_loss_func(z, indexes, temperature=0.1):
    z = F.normalize(z, dim=-1)
    sim = torch.exp(torch.einsum("if, jf -> ij", z, z) / temperature)
    indexes = indexes.unsqueeze(0)
    pos_mask = indexes.t() == indexes
    pos_mask.fill_diagonal_(0)
    neg_mask = indexes.t() != indexes
    pos = torch.sum(sim * pos_mask, 1)
    neg = torch.sum(sim * neg_mask, 1)
    return -(torch.mean(torch.log(pos / (pos + neg))))

def training_step(batch, num_large_crops=2):
    indexes, X, targets = batch
    outs = [_base_shared_step(x, targets) for x in X[:num_large_crops]]
    outs = {k: [out[k] for out in outs] for k in outs[0].keys()}
    class_loss = sum(outs["loss"]) / num_large_crops
    z = torch.cat([projector(f) for f in outs["feats"]])
    n_augs = num_large_crops
    nce_loss = simclr_loss_func(z, indexes.repeat(n_augs), temperature)
    return nce_loss + class_loss
# %%
history = []
# %%
for step in range(3):
    batch = (indexes, [augment(images), augment(images)], targets)
    loss = training_step(batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history.append(loss.item())
print(history)
