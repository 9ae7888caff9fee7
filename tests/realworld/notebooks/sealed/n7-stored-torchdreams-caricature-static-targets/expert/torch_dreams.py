"""Condensed stand-in for torch_dreams 2.x at commit 45658ba (dreamer.py, losses.py,
dreamer_utils.Hook, transforms.random_resize); torchvision's RandomAffine is left out."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Hook():
    def __init__(self, module, backward=False):
        if backward == False:
            self.hook = module.register_forward_hook(self.hook_fn)
        else:
            self.hook = module.register_backward_hook(self.hook_fn)

    def hook_fn(self, module, input, output):
        self.input = input
        self.output = output

    def close(self):
        self.hook.remove()


def resize_4d_tensor_by_factor(x, height_factor, width_factor):
    height = int(x.shape[-2] * height_factor)
    width = int(x.shape[-1] * width_factor)
    return F.interpolate(x, size=(height, width), mode='bilinear')


def resize_4d_tensor_by_size(x, height, width):
    return F.interpolate(x, size=(height, width), mode='bilinear')


class random_resize(nn.Module):
    def __init__(self, max_size_factor, min_size_factor):
        super().__init__()
        self.max_size_factor = max_size_factor
        self.min_size_factor = min_size_factor

    def forward(self, x):
        height_factor = random.uniform(a=self.min_size_factor, b=self.max_size_factor)
        width_factor = random.uniform(a=self.min_size_factor, b=self.max_size_factor)
        return resize_4d_tensor_by_factor(x=x, height_factor=height_factor, width_factor=width_factor)


class CaricatureLoss(nn.Module):

    def __init__(self, power=1.):
        super().__init__()
        self.power = power

    def cosine_dissimilarity(self, x, y, eps=1e-6):
        if x.shape != y.shape:
            """
            if their shapes are not equal (likely due to using static caricatures), then resize the target accordingly
            """
            y = resize_4d_tensor_by_size(y.unsqueeze(0), height=x.shape[-2], width=x.shape[-1]).squeeze(0)

        y = y.detach()

        numerator = (x * y.detach()).sum()
        denominator = torch.sqrt((y ** 2).sum()) + eps
        cossim = numerator / denominator
        cossim = torch.maximum(torch.tensor(0.1).to(cossim.device), cossim)
        loss = -(cossim * numerator ** self.power)
        return loss

    def loss(self, x, y):
        loss = self.cosine_dissimilarity(x, y)
        return loss

    def forward(self, layer_outputs, ideal_layer_outputs):
        assert len(layer_outputs) == len(ideal_layer_outputs)
        loss = 0.
        for i in range(len(layer_outputs)):
            l = self.loss(layer_outputs[i], ideal_layer_outputs[i])
            loss += l
        return loss


class image_param(nn.Module):
    """stand-in for auto_image_param: a plain pixel parameterisation with its own optimizer"""
    def __init__(self, height, width, device, standard_deviation=0.01):
        super().__init__()
        self.param = nn.Parameter(torch.randn(1, 3, height, width, device=device) * standard_deviation)
        self.optimizer = None

    def get_optimizer(self, lr, weight_decay):
        self.optimizer = torch.optim.Adam([self.param], lr=lr, weight_decay=weight_decay)

    def forward(self, device):
        return torch.sigmoid(self.param)

    def clip_grads(self, grad_clip=1.):
        torch.nn.utils.clip_grad_norm_(self.param, grad_clip)


class dreamer():
    def __init__(self, model, quiet=False, device='cuda'):
        self.model = model
        self.model.eval()
        self.device = device
        self.model.to(self.device)
        self.transforms = None
        self.quiet = quiet

    def get_default_transforms(self, rotate, scale_max, scale_min, translate_x, translate_y):
        self.transforms = random_resize(max_size_factor=scale_max, min_size_factor=scale_min)

    def caricature(self, input_tensor, layers, power=1., image_parameter=None, iters=120, lr=9e-3,
                   rotate_degrees=15, scale_max=1.2, scale_min=0.5, translate_x=0.1, translate_y=0.1,
                   weight_decay=1e-3, grad_clip=1., static=False):
        if image_parameter is None:
            height, width = input_tensor.shape[-2], input_tensor.shape[-1]
            image_parameter = image_param(height=height, width=width, device=self.device, standard_deviation=0.01)

        if image_parameter.optimizer is None:
            image_parameter.get_optimizer(lr=lr, weight_decay=weight_decay)

        hooks = []
        for layer in layers:
            hook = Hook(layer)
            hooks.append(hook)

        caricature_loss = CaricatureLoss(power=power)

        if static == False:
            raise NotImplementedError('only the static branch is kept in this stand-in')
        else:
            """
            if static is true, then we collect the layer outputs first, and use the same ideal layer outputs as the target at each iteration,
            this would be useful particularly for adversarial examples where the outcome depends on the position of each pixel
            """
            self.get_default_transforms(rotate=rotate_degrees, scale_max=scale_max, scale_min=scale_min,
                                        translate_x=translate_x, translate_y=translate_y)
            model_out = self.model(input_tensor.to(self.device))

            ideal_layer_outputs = []

            for hook in hooks:
                out = hook.output[0]
                ideal_layer_outputs.append(out)

        for i in range(iters):

            image_parameter.optimizer.zero_grad()

            img = image_parameter.forward(device=self.device)
            img_transformed = self.transforms(img)

            model_out = self.model(img_transformed)

            layer_outputs = []

            for hook in hooks:
                out = hook.output[0]
                layer_outputs.append(out)

            loss = caricature_loss.forward(layer_outputs=layer_outputs, ideal_layer_outputs=ideal_layer_outputs)

            loss.backward()
            image_parameter.clip_grads(grad_clip=grad_clip)
            image_parameter.optimizer.step()

        for hook in hooks:
            hook.close()

        return image_parameter
