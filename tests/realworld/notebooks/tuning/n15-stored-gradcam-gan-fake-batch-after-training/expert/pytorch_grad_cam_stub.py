"""Small stand-in for pytorch_grad_cam (jacobgil/pytorch-grad-cam 1.4): GradCAM with the
ActivationsAndGradients hooks and BaseCAM.forward of the library."""
import numpy as np
import torch


class ClassifierOutputTarget:
    def __init__(self, category):
        self.category = category

    def __call__(self, model_output):
        if len(model_output.shape) == 1:
            return model_output[self.category]
        return model_output[:, self.category]


class ActivationsAndGradients:
    """ Class for extracting activations and
    registering gradients from targetted intermediate layers """

    def __init__(self, model, target_layers):
        self.model = model
        self.gradients = []
        self.activations = []
        self.handles = []
        for target_layer in target_layers:
            self.handles.append(target_layer.register_forward_hook(self.save_activation))
            self.handles.append(target_layer.register_forward_hook(self.save_gradient))

    def save_activation(self, module, input, output):
        self.activations.append(output.cpu().detach())

    def save_gradient(self, module, input, output):
        if not hasattr(output, "requires_grad") or not output.requires_grad:
            return

        def _store_grad(grad):
            self.gradients = [grad.cpu().detach()] + self.gradients

        output.register_hook(_store_grad)

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


class GradCAM:
    def __init__(self, model, target_layers, use_cuda=False, compute_input_gradient=False):
        self.model = model.eval()
        self.target_layers = target_layers
        self.compute_input_gradient = compute_input_gradient
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers)

    def get_cam_weights(self, input_tensor, target_layer, targets, activations, grads):
        return np.mean(grads, axis=(2, 3))

    def forward(self, input_tensor, targets=None, eigen_smooth=False):
        if self.compute_input_gradient:
            input_tensor = torch.autograd.Variable(input_tensor, requires_grad=True)

        outputs = self.activations_and_grads(input_tensor)
        if targets is None:
            target_categories = np.argmax(outputs.cpu().data.numpy(), axis=-1)
            targets = [ClassifierOutputTarget(category) for category in target_categories]

        self.model.zero_grad()
        loss = sum([target(output) for target, output in zip(targets, outputs)])
        loss.backward(retain_graph=True)

        activations = self.activations_and_grads.activations[-1].numpy()
        grads = self.activations_and_grads.gradients[-1].numpy()
        weights = self.get_cam_weights(input_tensor, self.target_layers[-1], targets, activations, grads)
        cam = np.maximum((weights[:, :, None, None] * activations).sum(axis=1), 0)
        cam = cam - cam.min(axis=(1, 2), keepdims=True)
        return cam / (cam.max(axis=(1, 2), keepdims=True) + 1e-7)

    def __call__(self, input_tensor, targets=None, eigen_smooth=False):
        return self.forward(input_tensor, targets, eigen_smooth)
