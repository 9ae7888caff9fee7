# source: https://github.com/yhhhli/BRECQ/issues/22 (UniformAffineQuantizer and QuantModule of quant/quant_layer.py, GetLayerGrad / save_grad_data / quantize_model_till of quant/data_utils.py and the weight-quantizer initialisation of main_imagenet.py, cut down to a three-layer conv net with random calibration images; register_full_backward_hook for the deprecated register_backward_hook)
# scenario: stored_activations
# cause: computed_before_loop
# root: cell 3 line 10
# expert: the calibration call that initialises the weight quantizers runs with autograd on, so each UniformAffineQuantizer keeps self.delta / self.zero_point computed by the 'mse' search from weight.max()/min() with their graph; GetLayerGrad's loss.backward() for the fisher_diag mode frees that graph on the first calibration batch and the second batch backpropagates into it again. Initialise the quantization parameters under torch.no_grad(), as main_imagenet.py already does for the activation quantizers.
# %%
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
from typing import Union
torch.manual_seed(0)
device = torch.device('cpu')
# %%
def round_ste(x: torch.Tensor):
    """
    Implement Straight-Through Estimator for rounding operation.
    """
    return (x.round() - x).detach() + x


def lp_loss(pred, tgt, p=2.0, reduction='none'):
    """
    loss function measured in L_p Norm
    """
    if reduction == 'none':
        return (pred-tgt).abs().pow(p).sum(1).mean()
    else:
        return (pred-tgt).abs().pow(p).mean()


class UniformAffineQuantizer(nn.Module):
    def __init__(self, n_bits: int = 8, symmetric: bool = False, channel_wise: bool = False, scale_method: str = 'max',
                 leaf_param: bool = False):
        super(UniformAffineQuantizer, self).__init__()
        self.sym = symmetric
        self.n_bits = n_bits
        self.n_levels = 2 ** self.n_bits
        self.delta = None
        self.zero_point = None
        self.inited = False
        self.leaf_param = leaf_param
        self.channel_wise = channel_wise
        self.scale_method = scale_method

    def forward(self, x: torch.Tensor):

        if self.inited is False:
            if self.leaf_param:
                delta, self.zero_point = self.init_quantization_scale(x, self.channel_wise)
                self.delta = torch.nn.Parameter(delta)
            else:
                self.delta, self.zero_point = self.init_quantization_scale(x, self.channel_wise)
            self.inited = True

        # start quantization
        x_int = round_ste(x / self.delta) + self.zero_point
        x_quant = torch.clamp(x_int, 0, self.n_levels - 1)
        x_dequant = (x_quant - self.zero_point) * self.delta
        return x_dequant

    def init_quantization_scale(self, x: torch.Tensor, channel_wise: bool = False):
        delta, zero_point = None, None
        if self.scale_method == 'mse':
            x_max = x.max()
            x_min = x.min()
            best_score = 1e+10
            for i in range(80):
                new_max = x_max * (1.0 - (i * 0.01))
                new_min = x_min * (1.0 - (i * 0.01))
                x_q = self.quantize(x, new_max, new_min)
                # L_p norm minimization as described in LAPQ
                score = lp_loss(x, x_q, p=2.4, reduction='all')
                if score < best_score:
                    best_score = score
                    delta = (new_max - new_min) / (2 ** self.n_bits - 1)
                    zero_point = (- new_min / delta).round()
        else:
            raise NotImplementedError
        return delta, zero_point

    def quantize(self, x, max, min):
        delta = (max - min) / (2 ** self.n_bits - 1)
        zero_point = (- min / delta).round()
        # we assume weight quantization is always signed
        x_int = torch.round(x / delta)
        x_quant = torch.clamp(x_int + zero_point, 0, self.n_levels - 1)
        x_float_q = (x_quant - zero_point) * delta
        return x_float_q


class StraightThrough(nn.Module):
    def forward(self, input):
        return input


class QuantModule(nn.Module):
    """
    Quantized Module that can perform quantized convolution or normal convolution.
    """
    def __init__(self, org_module: nn.Conv2d, weight_quant_params: dict = {}, act_quant_params: dict = {}):
        super(QuantModule, self).__init__()
        self.fwd_kwargs = dict(stride=org_module.stride, padding=org_module.padding,
                               dilation=org_module.dilation, groups=org_module.groups)
        self.fwd_func = F.conv2d
        self.weight = org_module.weight
        self.org_weight = org_module.weight.data.clone()
        self.bias = org_module.bias
        self.org_bias = org_module.bias.data.clone()
        # de-activate the quantized forward default
        self.use_weight_quant = False
        self.use_act_quant = False
        # initialize quantizer
        self.weight_quantizer = UniformAffineQuantizer(**weight_quant_params)
        self.act_quantizer = UniformAffineQuantizer(**act_quant_params)
        self.activation_function = StraightThrough()
        self.ignore_reconstruction = False

    def forward(self, input: torch.Tensor):
        if self.use_weight_quant:
            weight = self.weight_quantizer(self.weight)
            bias = self.bias
        else:
            weight = self.org_weight
            bias = self.org_bias
        out = self.fwd_func(input, weight, bias, **self.fwd_kwargs)
        out = self.activation_function(out)
        if self.use_act_quant:
            out = self.act_quantizer(out)
        return out

    def set_quant_state(self, weight_quant: bool = False, act_quant: bool = False):
        self.use_weight_quant = weight_quant
        self.use_act_quant = act_quant
# %%
class QuantModel(nn.Module):
    """three conv layers with ReLU in between, each wrapped in a QuantModule"""
    def __init__(self, model: nn.Module, weight_quant_params: dict = {}, act_quant_params: dict = {}):
        super().__init__()
        self.model = model
        for name, child in list(model.named_children()):
            if isinstance(child, nn.Conv2d):
                setattr(model, name, QuantModule(child, weight_quant_params, act_quant_params))

    def set_quant_state(self, weight_quant: bool = False, act_quant: bool = False):
        for m in self.model.modules():
            if isinstance(m, QuantModule):
                m.set_quant_state(weight_quant, act_quant)

    def forward(self, input):
        return self.model(input)


cnn = nn.Sequential()
cnn.add_module('conv1', nn.Conv2d(3, 8, 3, padding=1))
cnn.add_module('relu1', nn.ReLU())
cnn.add_module('conv2', nn.Conv2d(8, 8, 3, padding=1, stride=2))
cnn.add_module('relu2', nn.ReLU())
cnn.add_module('conv3', nn.Conv2d(8, 10, 1))
cnn.add_module('pool', nn.AdaptiveAvgPool2d(1))
cnn.add_module('flatten', nn.Flatten())
cnn.eval()
# %%
# build quantization parameters
wq_params = {'n_bits': 4, 'channel_wise': False, 'scale_method': 'mse'}
aq_params = {'n_bits': 8, 'channel_wise': False, 'scale_method': 'mse', 'leaf_param': False}
qnn = QuantModel(model=cnn, weight_quant_params=wq_params, act_quant_params=aq_params)
qnn.to(device)
qnn.eval()
cali_data = torch.rand(16, 3, 8, 8)
# Initialize weight quantization parameters
qnn.set_quant_state(True, False)
_ = qnn(cali_data[:64].to(device))
# %%
class StopForwardException(Exception):
    pass


class GradSaverHook:
    def __init__(self, store_grad=True):
        self.store_grad = store_grad
        self.stop_backward = False
        self.grad_out = None

    def __call__(self, module, grad_input, grad_output):
        if self.store_grad:
            self.grad_out = grad_output[0]
        if self.stop_backward:
            raise StopForwardException


def quantize_model_till(model, layer, act_quant: bool = False):
    """
    We assumes modules are correctly ordered, holds for all models considered
    """
    model.set_quant_state(False, False)
    for name, module in model.named_modules():
        if isinstance(module, QuantModule):
            module.set_quant_state(True, act_quant)
        if module == layer:
            break


class GetLayerGrad:
    def __init__(self, model, layer, device: torch.device, act_quant: bool = False):
        self.model = model
        self.layer = layer
        self.device = device
        self.act_quant = act_quant
        self.data_saver = GradSaverHook(True)

    def __call__(self, model_input):
        self.model.eval()

        handle = self.layer.register_full_backward_hook(self.data_saver)
        with torch.enable_grad():
            try:
                self.model.zero_grad()
                inputs = model_input.to(self.device)
                self.model.set_quant_state(False, False)
                out_fp = self.model(inputs)
                quantize_model_till(self.model, self.layer, self.act_quant)
                out_q = self.model(inputs)
                loss = F.kl_div(F.log_softmax(out_q, dim=1), F.softmax(out_fp, dim=1), reduction='batchmean')
                loss.backward()
            except StopForwardException:
                pass

        handle.remove()
        self.model.set_quant_state(False, False)
        self.layer.set_quant_state(True, self.act_quant)
        self.model.train()
        return self.data_saver.grad_out.data


def save_grad_data(model, layer, cali_data: torch.Tensor,
                   damping: float = 1., act_quant: bool = False, batch_size: int = 32,
                   keep_gpu: bool = True):
    device = next(model.parameters()).device
    get_grad = GetLayerGrad(model, layer, device, act_quant=act_quant)
    cached_batches = []

    for i in range(int(cali_data.size(0) / batch_size)):
        cur_grad = get_grad(cali_data[i * batch_size:(i + 1) * batch_size])
        cached_batches.append(cur_grad.cpu())

    cached_grads = torch.cat([x for x in cached_batches])
    cached_grads = cached_grads.abs() + 1.0
    return cached_grads
# %%
# layer reconstruction of conv2 with opt_mode='fisher_diag': collect the Fisher weights first
layer = qnn.model.conv2
opt_mode = 'fisher_diag'
if opt_mode != 'mse':
    cached_grads = save_grad_data(qnn, layer, cali_data, act_quant=False, batch_size=4)
print(cached_grads.shape)
