# source: variant of https://github.com/fg91/visualizing-cnn-feature-maps/issues/7 (the filter visualizer's SaveFeatures hook, which the reporter found stores a new tensor built from the layer output instead of the output itself and "could actually break the backward of the loss"; written here for CPU as self.features = torch.tensor(output), so the break shows as an error instead of an image that never changes; a small frozen conv net instead of the pretrained VGG16, no OpenCV upscaling)
# scenario: stored_activations
# cause: no_grad_fn
# root: cell 1 line 5
# expert: The forward hook stores torch.tensor(output), a copy cut from the graph, so the loss built from activations.features has no path back to the image being optimised (and the network is frozen), and backward finds nothing that requires grad; as the issue settled, store the output itself: self.features = output.
# %%
import numpy as np
import torch
import torch.nn as nn
torch.manual_seed(0)
np.random.seed(0)

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
).eval()

def set_trainable(m, b):
    for p in m.parameters():
        p.requires_grad = b

set_trainable(model, False)
# %%
class SaveFeatures():
    def __init__(self, module):
        self.hook = module.register_forward_hook(self.hook_fn)
    def hook_fn(self, module, input, output):
        self.features = output
    def close(self):
        self.hook.remove()
# %%
class FilterVisualizer():
    def __init__(self, size=16, upscaling_steps=2, upscaling_factor=1.2):
        self.size, self.upscaling_steps, self.upscaling_factor = size, upscaling_steps, upscaling_factor
        self.model = model

    def visualize(self, layer, filter, lr=0.1, opt_steps=5):
        sz = self.size
        img = np.uint8(np.random.uniform(150, 180, (sz, sz, 3))) / 255  # generate random image
        activations = SaveFeatures(list(self.model.children())[layer])  # register hook

        for _ in range(self.upscaling_steps):  # scale the image up upscaling_steps times
            img_var = torch.tensor(img.transpose(2, 0, 1)[None], dtype=torch.float32, requires_grad=True)
            optimizer = torch.optim.Adam([img_var], lr=lr, weight_decay=1e-6)
            for n in range(opt_steps):  # optimize pixel values for opt_steps times
                optimizer.zero_grad()
                self.model(img_var)
                loss = -activations.features[0, filter].mean()
                loss.backward()
                optimizer.step()
            img = img_var.data.cpu().numpy()[0].transpose(1, 2, 0)
            self.output = img
            sz = int(self.upscaling_factor * sz)  # calculate new image size
            img = np.array([[img[int(i / self.upscaling_factor), int(j / self.upscaling_factor)]
                             for j in range(sz)] for i in range(sz)])  # nearest-neighbour upscaling
        activations.close()
        return self.output
# %%
layer = 6
filter = 3
FV = FilterVisualizer(size=16, upscaling_steps=2, upscaling_factor=1.2)
out = FV.visualize(layer, filter, lr=0.1, opt_steps=5)
print(out.shape, out.mean())
