# source: https://github.com/KamitaniLab/bdpy/pull/56
# scenario: stored_activations
# cause: no_grad_fn
# root: cell 1 line 47
# expert: the forward hook of FeatureExtractorHandle stores module_out.detach().clone() (added so extracted features survive in-place ReLU), so the activations the icnn reconstruction loop reads back from the extractor are cut from the graph of the image xt and loss.backward() has nothing to differentiate; PR #56 keeps the detaching handle only for plain feature extraction (detach=True) and gives the extractor built with detach=False (as icnn builds it) a handle that stores module_out itself.
# %%
import numpy as np
import torch
import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
np.random.seed(0)

encoder = nn.Sequential(OrderedDict([
    ('conv1', nn.Conv2d(3, 8, 3, padding=1)), ('relu1', nn.ReLU()),
    ('pool1', nn.MaxPool2d(2)),
    ('conv2', nn.Conv2d(8, 8, 3, padding=1)), ('relu2', nn.ReLU()),
    ('flatten', nn.Flatten()), ('fc', nn.Linear(8 * 4 * 4, 10)),
]))
encoder.eval()
layers = ['conv1', 'conv2', 'fc']
layer_mapping = {'conv1': 'relu1', 'conv2': 'relu2', 'fc': 'fc'}
# %%
def _parse_layer_name(model, layer):
    return dict(model.named_modules())[layer]


class FeatureExtractor(object):
    def __init__(self, encoder, layers=None, layer_mapping=None, device='cpu', detach=True):
        self._encoder = encoder
        self.__layers = layers
        self.__layer_map = layer_mapping
        self.__detach = detach
        self.__device = device

        self._extractor = FeatureExtractorHandle()

        self._encoder.to(self.__device)

        for layer in self.__layers:
            if self.__layer_map is not None:
                layer = self.__layer_map[layer]
            layer_object = _parse_layer_name(self._encoder, layer)
            layer_object.register_forward_hook(self._extractor)

    def __call__(self, x):
        return self.run(x)

    def run(self, x):
        self._extractor.clear()
        if not isinstance(x, torch.Tensor):
            xt = torch.tensor(x[np.newaxis], device=self.__device)
        else:
            xt = x

        self._encoder.forward(xt)

        features = {layer: self._extractor.outputs[i] for i, layer in enumerate(self.__layers)}
        if not self.__detach:
            return features

        return {k: v.cpu().detach().numpy() for k, v in features.items()}


class FeatureExtractorHandle(object):
    def __init__(self):
        self.outputs = []

    def __call__(self, module, module_in, module_out):
        self.outputs.append(module_out.detach().clone())

    def clear(self):
        self.outputs = []
# %%
# target features of the image to reconstruct (plain feature extraction, detach=True)
target_image = np.random.rand(3, 8, 8).astype(np.float32)
features = FeatureExtractor(encoder, layers, layer_mapping)(target_image)
print({k: v.shape for k, v in features.items()})
# %%
# icnn-style reconstruction: optimize the image so its features match the target features
n_iter = 5
x = np.random.rand(3, 8, 8).astype(np.float32)
feature_extractor = FeatureExtractor(encoder, layers, layer_mapping, device='cpu', detach=False)
xt = torch.tensor(x[np.newaxis], requires_grad=True)
op = torch.optim.SGD([xt], lr=0.5, momentum=0.9)
loss_func = torch.nn.MSELoss(reduction='sum')
loss_history = np.zeros(n_iter, dtype=np.float32)

for it in range(n_iter):
    op.zero_grad()
    xt.data = torch.tensor(x[np.newaxis])
    activations = feature_extractor.run(xt)

    loss = 0.
    for j, lay in enumerate(reversed(layers)):
        act_j = activations[lay].clone()
        feat_j = torch.tensor(features[lay]).clone()
        loss_j = loss_func(act_j, feat_j) / feat_j.numel()
        loss += loss_j

    loss.backward()
    op.step()
    loss_history[it] = loss.item()
    x = xt.detach().numpy()[0]
print(loss_history)
