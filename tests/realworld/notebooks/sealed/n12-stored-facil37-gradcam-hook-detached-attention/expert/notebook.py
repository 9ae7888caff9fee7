# %%
import contextlib
import torch
import torch.nn as nn
import torch.nn.functional as F
from copy import deepcopy

torch.manual_seed(0)
# two tasks of two classes each, small random images
images_t0, targets_t0 = torch.randn(32, 3, 8, 8), torch.randint(0, 2, (32,))
images_t1, targets_t1 = torch.randn(32, 3, 8, 8), torch.randint(2, 4, (32,))
trn_loader_t0 = list(zip(images_t0.split(8), targets_t0.split(8)))
trn_loader_t1 = list(zip(images_t1.split(8), targets_t1.split(8)))
# %%
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU())
        self.layer3 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.layer3(self.layer2(self.layer1(x)))).flatten(1)


class LLL_Net(nn.Module):
    """backbone + one head per task, as in FACIL's networks/network.py"""
    def __init__(self):
        super().__init__()
        self.model = Backbone()
        self.heads = nn.ModuleList()
        self.task_offset = []

    def add_head(self, num_outputs):
        self.task_offset.append(sum(h.out_features for h in self.heads))
        self.heads.append(nn.Linear(16, num_outputs))

    def forward(self, x):
        x = self.model(x)
        return [head(x) for head in self.heads]


model = LLL_Net()
model.add_head(2)
# %%
class GradCAM:
    """
    Calculates GradCAM for the given model.
    """

    def __init__(self, model: LLL_Net, layer_name, retain_graph=False):
        self.model = model
        assert hasattr(
            self.model.model, layer_name), 'Model {} has got attribute layer: {}'.format(type(self.model), layer_name)
        self.model_layer = getattr(self.model.model, layer_name)
        # grads & activations
        self.activations = None
        self.gradients = None
        self.retain_graph = retain_graph

    def __enter__(self):
        # register hooks to collect activations and gradients
        def forward_hook(module, input, output):
            if self.retain_graph:
                self.activations = output
            else:
                self.activations = output.detach()

        def backward_hook(module, grad_input, grad_output):
            self.gradients = grad_output[0].detach()

        # hook to final layer
        self.fhandle = self.model_layer.register_forward_hook(forward_hook)
        self.bhandle = self.model_layer.register_full_backward_hook(backward_hook)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.fhandle.remove()
        self.bhandle.remove()

    def __call__(self, input, class_indices=None, return_outputs=False):
        # pass input & backpropagate for selected class
        if input.dim() == 3:
            input = input.view([1] + list(input.size()))
        self.model.eval()
        model_output = self.model(input)
        logits = torch.cat(model_output, dim=1)
        if class_indices is None:
            class_indices = logits.argmax(dim=1)
        score = logits[:, class_indices].squeeze()
        self.model.zero_grad()
        score.mean().backward(retain_graph=self.retain_graph)
        model_output = [o.detach() for o in model_output]

        # create map based on gradients and activations
        with torch.no_grad() if not self.retain_graph else contextlib.suppress():
            weights = F.adaptive_avg_pool2d(self.gradients, 1)
            att_map = (weights * self.activations).sum(dim=1, keepdim=True)
            att_map = F.relu(att_map)
            del self.activations
            del self.gradients
            return (att_map, model_output) if return_outputs else att_map
# %%
beta, gamma, gradcam_layer = 1.0, 1.0, 'layer3'


def attention_distillation_loss(attention_map1, attention_map2):
    """Calculates the attention distillation loss"""
    attention_map1 = torch.norm(attention_map1, p=2, dim=1)
    attention_map2 = torch.norm(attention_map2, p=2, dim=1)
    return torch.norm(attention_map2 - attention_map1, p=1, dim=1).sum(dim=1).mean()


def cross_entropy(outputs, targets, exp=1.0, size_average=True, eps=1e-5):
    """Calculates cross-entropy with temperature scaling"""
    out = torch.nn.functional.softmax(outputs, dim=1)
    tar = torch.nn.functional.softmax(targets, dim=1)
    if exp != 1:
        out = out.pow(exp)
        out = out / out.sum(1).view(-1, 1).expand_as(out)
        tar = tar.pow(exp)
        tar = tar / tar.sum(1).view(-1, 1).expand_as(tar)
    out = out + eps / out.size(1)
    out = out / out.sum(1).view(-1, 1).expand_as(out)
    ce = -(tar * out.log()).sum(1)
    if size_average:
        ce = ce.mean()
    return ce


def criterion(t, outputs, targets, outputs_old=None, attmap=None, attmap_old=None):
    """Returns the loss value"""
    loss = 0
    if t > 0 and outputs_old is not None:
        # Knowledge distillation loss for all previous tasks
        loss += beta * cross_entropy(torch.cat(outputs[:t], dim=1), torch.cat(outputs_old[:t], dim=1), exp=1.0 / 2.0)
    # Attention Distillation loss
    if attmap is not None and attmap_old is not None:
        loss += gamma * attention_distillation_loss(attmap, attmap_old)
    return loss + torch.nn.functional.cross_entropy(outputs[t], targets - model.task_offset[t])


# first task: plain training, then keep the old model (post_train_process)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    model.train()
    for images, targets in trn_loader_t0:
        loss = criterion(0, model(images), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
model_old = deepcopy(model)
model.add_head(2)
optimizer = torch.optim.SGD(list(model.model.parameters()) + list(model.heads[-1].parameters()), lr=0.05)
# %%
# second task: LwM train_epoch
t = 1
with GradCAM(model_old, gradcam_layer) as gradcam_old:
    for images, targets in trn_loader_t1:
        # Forward old model
        attmap_old, outputs_old = gradcam_old(images, return_outputs=True)
        with GradCAM(model, gradcam_layer, retain_graph=True) as gradcam:
            attmap = gradcam(images)  # this use eval() pass
        model.zero_grad()
        model.train()
        outputs = model(images)  # this use train() pass
        loss = criterion(t, outputs, targets, outputs_old, attmap, attmap_old)
        # Backward
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10000)
        optimizer.step()
print("task 1 loss", loss.item())
# %%
# why does gamma change nothing? backpropagate the attention-distillation term alone
images, targets = trn_loader_t1[0]
with GradCAM(model_old, gradcam_layer) as gradcam_old:
    attmap_old = gradcam_old(images)
with GradCAM(model, gradcam_layer, retain_graph=True) as gradcam:
    attmap = gradcam(images)
loss_ad = gamma * attention_distillation_loss(attmap, attmap_old)
optimizer.zero_grad()
loss_ad.backward()
print("attention loss", loss_ad.item(), "grad norm of layer3:",
      model.model.layer3[0].weight.grad.norm().item())
