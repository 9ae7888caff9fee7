# source: https://github.com/NeuroTorch/NeuroTorch/issues/134
# style: spiking
# cause: recurrent_state_not_detached
# line: 118
# expert: TBPTT only wraps the forward of the output layers, so after each truncated backward only the readout state is detached while the hidden LIF layer keeps returning its membrane state with the previous chunk's (already freed) graph; the fix (PR #137) also decorates the hidden layers' forward with a closure that returns `recursive_detach(hh)`.
from collections import defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)


def list_insert_replace_at(lst, idx, value):
    if idx < len(lst):
        lst[idx] = value
    else:
        lst.append(value)


def unpack_out_hh(out):
    if isinstance(out, (tuple, list)) and len(out) == 2:
        return out[0], out[1]
    return out, None


def recursive_detach(obj):
    if isinstance(obj, torch.Tensor):
        return obj.detach()
    if isinstance(obj, (tuple, list)):
        return type(obj)(recursive_detach(o) for o in obj)
    return obj


class SpyLIFLayer(nn.Module):
    def __init__(self, input_size, output_size, name="hidden", tau_mem=5.0, threshold=1.0):
        super().__init__()
        self.name = name
        self.forward_weights = nn.Parameter(torch.randn(input_size, output_size) * 0.3)
        self.alpha = float(torch.exp(torch.tensor(-1.0 / tau_mem)))
        self.threshold = threshold

    def forward(self, inputs, state=None, **kwargs):
        if state is None:
            V = torch.zeros(inputs.shape[0], self.forward_weights.shape[1])
        else:
            V, = state
        V = self.alpha * V + inputs @ self.forward_weights
        spikes = torch.sigmoid(5.0 * (V - self.threshold))
        V = V * (1.0 - spikes)
        return spikes, (V,)


class SpyLILayer(nn.Module):
    def __init__(self, input_size, output_size, name="readout", tau_mem=5.0):
        super().__init__()
        self.name = name
        self.forward_weights = nn.Parameter(torch.randn(input_size, output_size) * 0.3)
        self.alpha = float(torch.exp(torch.tensor(-1.0 / tau_mem)))

    def forward(self, inputs, state=None, **kwargs):
        if state is None:
            V = torch.zeros(inputs.shape[0], self.forward_weights.shape[1])
        else:
            V, = state
        V = self.alpha * V + inputs @ self.forward_weights
        return V, (V,)


class SequentialRNN(nn.Module):
    def __init__(self, hidden_layers, output_layers):
        super().__init__()
        self.hidden_layers = nn.ModuleList(hidden_layers)
        self.output_layers = nn.ModuleDict({layer.name: layer for layer in output_layers})

    def get_all_layers(self):
        return list(self.hidden_layers) + list(self.output_layers.values())

    def forward(self, x):
        hh = {layer.name: None for layer in self.get_all_layers()}
        outputs = defaultdict(list)
        for t in range(x.shape[1]):
            h = x[:, t]
            for layer in self.hidden_layers:
                h, hh[layer.name] = layer(h, hh[layer.name], t=t)
            for name, layer in self.output_layers.items():
                out, hh[name] = unpack_out_hh(layer(h, hh[name], t=t))
                outputs[name].append(out)
        return {name: torch.stack(v, dim=1) for name, v in outputs.items()}


class TBPTT:
    def __init__(self, params, criterion, backward_time_steps, optim_time_steps, lr=1e-2):
        self.params = list(params)
        self.criterion = criterion
        self.backward_time_steps = backward_time_steps
        self.optim_time_steps = optim_time_steps
        self.optimizer = torch.optim.Adam(self.params, lr=lr)
        self.output_layers = None
        self._original_forwards = {}
        self._layers_buffer = defaultdict(list)
        self._forwards_decorated = False
        self._optim_counter = 0

    def start(self, trainer):
        self.trainer = trainer
        self.output_layers = trainer.model.output_layers
        self._initialize_original_forwards()

    def _initialize_original_forwards(self):
        for layer in self.output_layers.values():
            self._original_forwards[layer.name] = (layer, layer.forward)

    def decorate_forwards(self):
        if self.trainer.model.training:
            if not self._forwards_decorated:
                self._initialize_original_forwards()
            for layer in self.output_layers.values():
                layer.forward = self._decorate_forward(layer.forward, layer.name)
            self._forwards_decorated = True

    def undecorate_forwards(self):
        for name, (layer, original_forward) in self._original_forwards.items():
            layer.forward = original_forward
        self._forwards_decorated = False

    def _decorate_forward(self, forward, layer_name):
        def _forward(*args, **kwargs):
            out = forward(*args, **kwargs)
            t = kwargs.get("t", None)
            if t is None:
                return out
            out_tensor, hh = unpack_out_hh(out)
            list_insert_replace_at(self._layers_buffer[layer_name], t % self.backward_time_steps, out_tensor)
            self._optim_counter += 1
            if len(self._layers_buffer[layer_name]) == self.backward_time_steps:
                self._backward_at_t(t, self.backward_time_steps, layer_name)
                out = recursive_detach(out)
            if self._optim_counter >= self.optim_time_steps:
                self._make_optim_step()
            return out
        return _forward

    def _backward_at_t(self, t, backward_t, layer_name):
        y_batch = self.trainer.y_batch[:, (t + 1) - backward_t: t + 1]
        pred_batch = torch.stack(self._layers_buffer[layer_name], dim=1)
        batch_loss = self.criterion(pred_batch, y_batch)
        batch_loss.backward()
        self._layers_buffer[layer_name].clear()

    def _make_optim_step(self):
        self.optimizer.step()
        self.optimizer.zero_grad()
        self._optim_counter = 0

    def on_batch_begin(self):
        self.optimizer.zero_grad()
        self.decorate_forwards()

    def on_batch_end(self):
        self.undecorate_forwards()
        self._layers_buffer.clear()
        self.optimizer.zero_grad()


class Trainer:
    def __init__(self, model, callback):
        self.model = model
        self.callback = callback
        callback.start(self)

    def train(self, x, y, n_iterations):
        self.model.train()
        for it in range(n_iterations):
            self.x_batch, self.y_batch = x, y
            self.callback.on_batch_begin()
            pred = self.model(x)
            self.callback.on_batch_end()
            print("iteration", it, "mse", torch.nn.functional.mse_loss(pred["readout"], y).item())


n_units, n_time = 4, 6
x = torch.rand(3, n_time, n_units)
y = torch.rand(3, n_time, 2)
model = SequentialRNN(
    hidden_layers=[SpyLIFLayer(n_units, 8, name="hidden")],
    output_layers=[SpyLILayer(8, 2, name="readout")],
)
tbptt = TBPTT(model.parameters(), nn.MSELoss(), backward_time_steps=2, optim_time_steps=2)
trainer = Trainer(model, tbptt)
trainer.train(x, y, n_iterations=2)
