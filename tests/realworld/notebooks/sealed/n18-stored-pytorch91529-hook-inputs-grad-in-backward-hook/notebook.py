# source: https://github.com/pytorch/pytorch/issues/91529
# scenario: stored_activations
# cause: no_grad_fn
# root: cell 1 line 13
# expert: compute_grad() re-runs a copy of the layer on the input that the forward hook stored, but it is called from a full backward hook, and hooks fired during backward run in no_grad mode (unless create_graph=True), so y = func(x) gets no grad_fn (the reporter saw grad_fn None, is_leaf True) and dy.sum().backward() fails inside the training cell's loss.backward(). The PyTorch maintainers' guidance for work inside backward hooks (albanD: 'it will run in no_grad mode ... You can use torch.enable_grad() to re-enable autograd within the hook') is to wrap the recomputation in torch.enable_grad().
# %%
import torch
import torch.nn as nn
from torch import Tensor
torch.manual_seed(0)
# %%
# here is a custom grad_weight_computation function, the 'input' is the input of a specific layer in a pytorch model
# and the 'layer' is exactly the layer, the 'cast' is the ratio of grad_output to output
def compute_grad(input: Tensor, layer: nn.Linear, cast : Tensor):
    x = input.clone().detach()
    cast = cast.clone().detach()
    x.requires_grad = True

    # Create an identical linear layer without backward
    func = nn.Linear(in_features=layer.in_features, out_features=layer.out_features, bias=True)
    # Import parameter dictionary
    func.load_state_dict(layer.state_dict())

    y = func(x)
    dy = y * cast
    dy.sum().backward()
    dw = func.weight.grad
    return dw
# %%
layer_inputs, layer_outputs, custom_grads = {}, {}, {}

def register_hooks(model):
    for name, layer in model.named_modules():
        if isinstance(layer, nn.Linear):
            def fwd_hook(module, inp, out, name=name):
                layer_inputs[name] = inp[0]
                layer_outputs[name] = out

            def bwd_hook(module, grad_input, grad_output, name=name):
                cast = grad_output[0] / (layer_outputs[name] + 1e-6)
                custom_grads[name] = compute_grad(layer_inputs[name], module, cast)

            layer.register_forward_hook(fwd_hook)
            layer.register_full_backward_hook(bwd_hook)
# %%
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
register_hooks(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(2)]
# %%
for x, target in data:
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), target)
    loss.backward()
    print(loss.item(), {k: tuple(v.shape) for k, v in custom_grads.items()})
    optimizer.step()
