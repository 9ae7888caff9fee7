# source: https://github.com/facebookresearch/kill-the-bits/issues/35 (ActivationWatcher of src/utils/watcher.py with its forward hook storing input[0].data.cpu(), evaluate and finetune_centroids from src/utils/training.py, on a small CNN and random data; the quantization step between watching and finetuning is reduced to a k-means of the stored activations' rows)
# scenario: clean
# expert: nothing to fix: the forward hooks store input[0].data.cpu(), which is detached from the graph, the hooks are removed after watching, and the stored activations only feed numpy/no-grad computations; the finetuning cell then trains on fresh forward passes.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from operator import attrgetter
torch.manual_seed(0)

student = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
                        nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 10))
teacher = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
                        nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 10))
teacher.load_state_dict(student.state_dict())
loader = [(torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,))) for _ in range(4)]
criterion = nn.CrossEntropyLoss()
# %%
def evaluate(test_loader, model, criterion, n_iter=-1):
    n_iter = len(test_loader) if n_iter == -1 else n_iter
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for i, (input, target) in enumerate(test_loader):
            if i >= n_iter: break
            output = model(input)
            loss = criterion(output, target)
            correct += (output.argmax(1) == target).sum().item()
            total += len(target)
    return 100.0 * correct / total


class ActivationWatcher:
    """Monitors and stores *input* activations in all the layers of the network."""

    def __init__(self, model, layer=''):
        self.model = model
        all_layers = self._get_layers()
        if len(layer) == 0:
            self.layers = all_layers
        else:
            assert layer in all_layers
            self.layers = [layer]
        self.modules_to_layers = {attrgetter(layer)(self.model): layer for layer in self.layers}
        self._register_hooks()
        self._watch = False

    def _get_layers(self):
        keys = self.model.state_dict().keys()
        layers = [k[:k.rfind(".")] for k in keys if 'bias' not in k]
        layers = [layer for layer in layers if not isinstance(attrgetter(layer)(self.model), nn.BatchNorm2d)]
        return layers

    def _register_hooks(self):
        # define hook to save output after each layer
        def fwd_hook(module, input, output):
            layer = self.modules_to_layers[module]
            if self._watch:
                # retrieve activations
                activations = input[0].data.cpu()
                # store activations
                self.activations[layer].append(activations)
        # register hooks
        self.handles = []
        for layer in self.layers:
            handle = attrgetter(layer)(self.model).register_forward_hook(fwd_hook)
            self.handles.append(handle)

    def watch(self, loader, criterion, n_iter):
        self._watch = True
        self.activations = {layer: [] for layer in self.layers}
        evaluate(loader, self.model, criterion, n_iter=n_iter)
        self._watch = False
        self.activations = {k: torch.cat(v, dim=0) for (k, v) in self.activations.items()}
        for handle in self.handles:
            handle.remove()
        return self.activations
# %%
watcher = ActivationWatcher(student)
activations = watcher.watch(loader, criterion, n_iter=2)
print({k: tuple(v.shape) for k, v in activations.items()})
# %%
# quantization step (reduced): cluster the input rows of the first linear layer
acts = activations['4'].numpy()
centroids = acts[:4].copy()
for _ in range(5):
    assign = ((acts[:, None, :] - centroids[None]) ** 2).sum(-1).argmin(1)
    for k in range(len(centroids)):
        if (assign == k).any():
            centroids[k] = acts[assign == k].mean(0)
print('centroids', centroids.shape)
# %%
def finetune_centroids(train_loader, student, teacher, criterion, optimizer, n_iter=-1):
    n_iter = len(train_loader) if n_iter == -1 else n_iter
    for i, (input, target) in enumerate(train_loader):
        if i >= n_iter: break
        output = student(input)
        student_logits = F.log_softmax(output, dim=1)
        with torch.no_grad(): teacher_probs = F.softmax(teacher(input), dim=1)
        loss = F.kl_div(student_logits, teacher_probs, reduction='batchmean')
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()

student.train()
optimizer = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
for epoch in range(2):
    print(epoch, finetune_centroids(loader, student, teacher, criterion, optimizer))
print('accuracy', evaluate(loader, student, criterion))
