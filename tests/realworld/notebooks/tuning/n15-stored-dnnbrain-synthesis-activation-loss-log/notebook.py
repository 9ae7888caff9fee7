# source: https://github.com/BNUCNL/dnnbrain/commit/da07ee4eb49369e4941cadfc474ac6df708726e4 (SynthesisImage of dnnbrain/dnn/algo.py as it was before this fix, at a6fefeb: the activation-maximisation loss recorders activation_loss / regularization_loss; a small conv net and DNN wrapper instead of AlexNet, and mpl_stub.py standing in for matplotlib.pyplot when the recorded losses are plotted)
# scenario: stored_activations
# cause: numpy_on_grad_tensor
# root: cell 1 line 42
# expert: the loss recorder self.activation_loss keeps the activation loss tensors themselves (-torch.mean(self.activation), still attached to the graph of each synthesis step), so plotting the list makes numpy call .numpy() on tensors that require grad; the fix records plain numbers, self.activ_losses.append(self.activ_loss.item()), as the commit does.
# %%
import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam
torch.manual_seed(0)
np.random.seed(0)


class DNN:
    """stand-in for dnnbrain's DNN wrapper around a torchvision AlexNet"""
    def __init__(self):
        self.model = nn.Sequential()
        self.model.add_module('conv1', nn.Conv2d(3, 8, 3, padding=1))
        self.model.add_module('relu1', nn.ReLU())
        self.model.add_module('conv2', nn.Conv2d(8, 8, 3, padding=1))
        self.model.add_module('relu2', nn.ReLU())
        self.model.eval()
        self.model.requires_grad_(False)
        self.img_size = (16, 16)
        self.layers = {'conv1': 'conv1', 'conv2': 'conv2'}

    def layer2module(self, layer):
        return getattr(self.model, self.layers[layer])

    def test_transform(self, image):
        return torch.from_numpy(image.astype(np.float32) / 3.0)


class Image:
    def __init__(self, data):
        self.data = data

    def get(self):
        return self.data
# %%
class SynthesisImage:
    """
    Generate a synthetic image that maximally activates a neuron.
    """

    def __init__(self, dnn=None, layer=None, channel=None,
                 activ_metric='mean', regular_metric='L1', n_iter=30):
        self.dnn = dnn
        self.layer = layer
        self.channel = channel
        self.set_params(activ_metric, regular_metric, n_iter)
        self.activation = None
        self.optimal_image = None

        # loss recorder
        self.activation_loss = []
        self.regularization_loss = []

    def get_layer(self):
        return self.layer, self.channel

    def set_params(self, activ_metric, regular_metric, n_iter):
        # activation metric setting
        if activ_metric == 'max':
            self.activ_metric = self.max_activation
        elif activ_metric == 'mean':
            self.activ_metric = self.mean_activation
        else:
            raise AssertionError('Only max and mean activation metrics are supported')

        # regularization metric setting
        if regular_metric == 'L1':
            self.regular_metric = self.L1_norm
        else:
            raise AssertionError('Only L1 is supported')

        # time for iter
        self.n_iter = n_iter

    def mean_activation(self):
        activ = -torch.mean(self.activation)
        self.activation_loss.append(activ)
        return activ

    def max_activation(self):
        activ = -torch.max(self.activation)
        self.activation_loss.append(activ)
        return activ

    def L1_norm(self):
        reg = np.abs(self.optimal_image.detach().numpy()).sum()
        self.regularization_loss.append(reg)
        return reg

    def register_hooks(self):
        """
        Define register hook and register them to specific layer and channel.
        """
        layer, chn = self.get_layer()

        def forward_hook(module, feat_in, feat_out):
            self.activation = feat_out[0, chn]

        # register forward hook to the target layer
        module = self.dnn.layer2module(layer)
        module.register_forward_hook(forward_hook)

    def synthesize(self):
        """
        Synthesize the image which maximally activates target layer and channel
        """
        # Hook the selected layer
        self.register_hooks()

        # Generate a random image
        image = np.random.uniform(0, 3, (3, *self.dnn.img_size)).astype(np.uint8)
        image = Image(image)
        self.optimal_image = self.dnn.test_transform(image.get()).unsqueeze(0)
        self.optimal_image.requires_grad_(True)

        # Define optimizer for the image
        self.activation_loss = []
        self.regularization_loss = []
        optimizer = Adam([self.optimal_image], lr=0.1, betas=(0.9, 0.99))
        for i in range(1, self.n_iter + 1):
            # clear gradients for next train
            optimizer.zero_grad()

            # Forward pass layer by layer until the target layer
            # to triger the hook funciton.
            self.dnn.model(self.optimal_image)

            # computer loss
            alpha = 0.1
            loss = self.activ_metric() + alpha * self.regular_metric()

            # Backward
            loss.backward()
            # Update image
            optimizer.step()
            print(f'Iteration: {i}/{self.n_iter}')

        # Return the optimized image
        return self.optimal_image[0].detach().numpy()
# %%
dnn = DNN()
synth = SynthesisImage(dnn, layer='conv2', channel=3, activ_metric='mean', regular_metric='L1', n_iter=5)
img_out = synth.synthesize()
print(img_out.shape)
# %%
import mpl_stub as plt  # stands in for matplotlib.pyplot

plt.figure()
plt.plot(synth.activation_loss, label='activation loss')
plt.plot(synth.regularization_loss, label='regularization loss')
plt.xlabel('iteration')
plt.legend()
plt.show()
