"""Stand-in for pinnstorch (rezaakb/pinns-torch), cut down to what the Navier-Stokes notebook
uses: PointCloudData/PointCloud, MeshSampler (continuous mode), FCN, PINNModule,
PINNDataModule, PINNDataLoader and utils.gradient/mse, following pinnstorch/data/*,
pinnstorch/models/* and pinnstorch/utils/* of the repository (no CUDA graph capture, no
torch.jit/compile, automatic optimization with Adam)."""
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import torch
from torch import nn
from lightning import LightningDataModule, LightningModule


# ---------------------------------------------------------------- utils/gradient_fn.py
def gradient(dy: torch.Tensor, dx, ones_like_tensor=None, create_graph: bool = True) -> List[torch.Tensor]:
    """Compute the gradient of a tensor `dy` with respect to another tensor `dx`."""
    if ones_like_tensor is None:
        grad_outputs = [torch.ones_like(dy)]
    else:
        grad_outputs = ones_like_tensor
    if isinstance(dx, torch.Tensor):
        dx = [dx]
    dy_dx = torch.autograd.grad(
        [dy], dx, grad_outputs=grad_outputs, create_graph=create_graph,
        retain_graph=True, allow_unused=False,
    )
    grads = [grad if grad is not None else torch.zeros_like(dx[i]) for i, grad in enumerate(dy_dx)]
    return grads


# ---------------------------------------------------------------- utils/module_fn.py
def mse(loss, preds, target=None, keys=None, mid=None):
    if keys is None:
        return loss
    for key in keys:
        if target is None and mid is None:
            loss = loss + torch.mean(torch.square(preds[key]))
        elif target is not None:
            loss = loss + torch.mean(torch.square(preds[key] - target[key]))
    return loss


def sse(loss, preds, target=None, keys=None, mid=None):
    if keys is None:
        return loss
    for key in keys:
        if target is None and mid is None:
            loss = loss + torch.sum(torch.square(preds[key]))
        elif target is not None:
            loss = loss + torch.sum(torch.square(preds[key] - target[key]))
    return loss


def relative_l2_error(preds, target):
    l2_norm_error = torch.mean((preds - target) ** 2)
    l2_norm_target = torch.mean((target) ** 2)
    if l2_norm_target == 0:
        return l2_norm_error
    return torch.sqrt(l2_norm_error / l2_norm_target)


def fix_extra_variables(extra_variables):
    if extra_variables is None:
        return None
    extra_variables_parameters = {}
    for key in extra_variables:
        extra_variables_parameters[key] = torch.tensor(
            [extra_variables[key]], dtype=torch.float32, requires_grad=True
        )
    return torch.nn.ParameterDict(extra_variables_parameters)


def set_requires_grad(x, t, enable_grad=True):
    if t is not None:
        t = t.requires_grad_(enable_grad)
    x = [x_.requires_grad_(enable_grad) for x_ in x]
    return x, t


# ---------------------------------------------------------------- data/domains/point_cloud.py
@dataclass
class PointCloudData:
    spatial: List[np.ndarray]
    time: List[np.ndarray]
    solution: Dict[str, np.ndarray]


class PointCloud:
    """Mesh built from spatio-temporal point data (N x 1 per spatial axis, T x 1 time, N x T solutions)."""

    def __init__(self, root_dir, read_data_fn):
        data = read_data_fn(root_dir)
        self.spatial_domain, self.time_domain, self.solution = data.spatial, data.time[0], data.solution
        self.spatial_dim = len(self.spatial_domain)
        n, t_points = self.spatial_domain[0].shape[0], self.time_domain.shape[0]
        self.spatial_domain_mesh = [np.tile(s, (1, t_points)) for s in self.spatial_domain]       # N x T
        self.time_domain_mesh = np.tile(self.time_domain.T, (n, 1))                               # N x T
        lb = [s.min() for s in self.spatial_domain] + [self.time_domain.min()]
        ub = [s.max() for s in self.spatial_domain] + [self.time_domain.max()]
        self.lb, self.ub = np.array(lb, dtype=np.float32), np.array(ub, dtype=np.float32)

    def flatten_mesh(self, solution_names):
        spatial = np.hstack([s.flatten()[:, None] for s in self.spatial_domain_mesh])
        time = self.time_domain_mesh.flatten()[:, None]
        solution = {name: self.solution[name].flatten()[:, None] for name in solution_names}
        return spatial, time, solution


# ---------------------------------------------------------------- data/sampler/*.py
class SamplerBase:
    def __init__(self):
        self.time_domain_sampled = None
        self.spatial_domain_sampled = None
        self.solution_sampled = None
        self.solution_names = None
        self.zeros_tensor = torch.tensor(0.0, dtype=torch.float32)

    def concatenate_solutions(self, flatten_mesh):
        flatten_mesh = list(flatten_mesh)
        flatten_mesh[2] = np.concatenate([flatten_mesh[2][n] for n in self.solution_names], axis=-1)
        return flatten_mesh

    def sample_mesh(self, num_sample, flatten_mesh):
        flatten_mesh = self.concatenate_solutions(flatten_mesh)
        if num_sample is None:
            return self.convert_to_tensor(flatten_mesh)
        idx = np.random.choice(range(flatten_mesh[0].shape[0]), num_sample, replace=False)
        return self.convert_to_tensor((flatten_mesh[0][idx, :], flatten_mesh[1][idx, :], flatten_mesh[2][idx, :]))

    @staticmethod
    def convert_to_tensor(arrays):
        return [torch.from_numpy(array.astype(np.float32)) for array in arrays]

    def loss_fn(self, inputs, loss, **functions):
        self.functions = functions
        return self._loss_fn(inputs, loss)

    def __len__(self):
        return len(self.spatial_domain_sampled[0])

    def __getitem__(self, idx):
        spatial_domain = [s[idx] for s in self.spatial_domain_sampled]
        time_domain = self.zeros_tensor if self.time_domain_sampled is None else self.time_domain_sampled[idx]
        solution_domain = {'///': self.zeros_tensor}
        if self.solution_sampled is not None:
            solution_domain = {name: self.solution_sampled[i][idx] for i, name in enumerate(self.solution_names)}
        return (spatial_domain, time_domain, solution_domain)


class MeshSampler(SamplerBase):
    """Sample from Mesh for continuous mode."""

    def __init__(self, mesh, idx_t=None, num_sample=None, solution=None, collection_points=None):
        super().__init__()
        self.solution_names = solution
        self.collection_points_names = collection_points
        self.idx_t = idx_t
        flatten_mesh = mesh.flatten_mesh(self.solution_names)
        (self.spatial_domain_sampled, self.time_domain_sampled, self.solution_sampled) = \
            self.sample_mesh(num_sample, flatten_mesh)
        self.solution_sampled = list(torch.split(self.solution_sampled, (1), dim=1))
        self.spatial_domain_sampled = list(torch.split(self.spatial_domain_sampled, (1), dim=1))

    def _loss_fn(self, inputs, loss):
        x, t, u = inputs
        x, t = set_requires_grad(x, t)
        outputs = self.functions["forward"](x, t)
        if self.collection_points_names:
            if self.functions["extra_variables"] is not None:
                outputs = self.functions["pde_fn"](outputs, *x, t, self.functions["extra_variables"])
            else:
                outputs = self.functions["pde_fn"](outputs, *x, t)
        loss = self.functions["loss_fn"](loss, outputs, keys=self.collection_points_names) + \
            self.functions["loss_fn"](loss, outputs, u, keys=self.solution_names)
        return loss, outputs


# ---------------------------------------------------------------- data/dataloader, pinn_datamodule.py
class PINNDataLoader:
    def __init__(self, dataset, batch_size=None, ignore=False, shuffle=False):
        self.dataset, self.batch_size, self.ignore = dataset, batch_size, ignore
        self.dataset_size = len(self.dataset)
        self.indices = torch.randperm(self.dataset_size) if shuffle else torch.arange(self.dataset_size)
        self.current_index = 0

    def __len__(self):
        if self.batch_size is None:
            return 1
        return self.dataset_size // self.batch_size + (0 if self.ignore else 1)

    def __iter__(self):
        self.current_index = 0
        return self

    def __next__(self):
        if self.current_index >= len(self.indices):
            raise StopIteration
        if self.batch_size is None:
            self.current_index += self.dataset_size
            return self.dataset[:]
        batch = self.dataset[self.indices[self.current_index: self.current_index + self.batch_size]]
        self.current_index += self.batch_size
        return batch


class PINNDataModule(LightningDataModule):
    def __init__(self, train_datasets, val_dataset, test_dataset=None, pred_dataset=None, batch_size=None):
        super().__init__()
        self.train_datasets, self.val_dataset = train_datasets, val_dataset
        self.test_dataset, self.pred_dataset = test_dataset, pred_dataset
        self.batch_size = batch_size
        self.data_train = None
        self.data_val = self.val_dataset
        self.data_test = self.test_dataset if self.test_dataset else self.val_dataset
        self.data_pred = self.pred_dataset if self.pred_dataset else self.val_dataset

    def setup(self, stage=None):
        if not self.data_train:
            self.data_train = {}
            for train_dataset in self.train_datasets:
                self.data_train[train_dataset.loss_fn] = PINNDataLoader(
                    train_dataset, batch_size=self.batch_size, ignore=True, shuffle=True)

    def train_dataloader(self):
        return self.data_train

    def val_dataloader(self):
        self.loss_fn = self.data_val.loss_fn
        self.solution_names = self.data_val.solution_names
        return PINNDataLoader(self.data_val, batch_size=self.batch_size, shuffle=False)

    def test_dataloader(self):
        self.loss_fn = self.data_test.loss_fn
        self.solution_names = self.data_test.solution_names
        return PINNDataLoader(self.data_test, batch_size=self.batch_size, shuffle=False)

    def predict_dataloader(self):
        self.loss_fn = self.data_pred.loss_fn
        self.solution_names = self.data_pred.solution_names
        return PINNDataLoader(self.data_pred, batch_size=self.batch_size, shuffle=False)


# ---------------------------------------------------------------- models/net/neural_net.py
class FCN(nn.Module):
    def __init__(self, layers, lb, ub, output_names, discrete: bool = False) -> None:
        super().__init__()
        self.model = self.initalize_net(layers)
        self.register_buffer("lb", torch.tensor(lb, dtype=torch.float32, requires_grad=False))
        self.register_buffer("ub", torch.tensor(ub, dtype=torch.float32, requires_grad=False))
        self.output_names = output_names
        self.discrete = discrete

    def initalize_net(self, layers):
        initializer = nn.init.xavier_uniform_
        net = nn.Sequential()
        input_layer = nn.Linear(layers[0], layers[1])
        initializer(input_layer.weight)
        net.add_module("input", input_layer)
        net.add_module("activation_1", nn.Tanh())
        for i in range(1, len(layers) - 2):
            hidden_layer = nn.Linear(layers[i], layers[i + 1])
            initializer(hidden_layer.weight)
            net.add_module(f"hidden_{i+1}", hidden_layer)
            net.add_module(f"activation_{i+1}", nn.Tanh())
        output_layer = nn.Linear(layers[-2], layers[-1])
        initializer(output_layer.weight)
        net.add_module("output", output_layer)
        return net

    def forward(self, spatial, time):
        if len(spatial) == 1:
            z = torch.cat((spatial[0], time), 1)
        elif len(spatial) == 2:
            x, y = spatial
            z = torch.cat((x, y, time), 1)
        else:
            x, y, z_ = spatial
            z = torch.cat((x, y, z_, time), 1)
        z = 2.0 * (z - self.lb) / (self.ub - self.lb) - 1.0
        z = self.model(z)
        return {name: z[:, i: i + 1] for i, name in enumerate(self.output_names)}


# ---------------------------------------------------------------- models/pinn_module.py
class PINNModule(LightningModule):
    def __init__(self, net, pde_fn, optimizer=None, scheduler=None, loss_fn: str = "sse",
                 extra_variables=None, output_fn=None, runge_kutta=None):
        super().__init__()
        self.net = net
        self.extra_variables = fix_extra_variables(extra_variables)
        self.output_fn = output_fn
        self.pde_fn = pde_fn
        self.optimizer = optimizer or (lambda params: torch.optim.Adam(params, lr=1e-3))
        self.rk = runge_kutta
        self.loss_fn = sse if loss_fn == "sse" else mse
        self.functions = {
            "runge_kutta": self.rk, "forward": self.forward, "pde_fn": self.pde_fn,
            "output_fn": self.output_fn, "extra_variables": self.extra_variables, "loss_fn": self.loss_fn,
        }

    def forward(self, spatial, time):
        outputs = self.net(spatial, time)
        if self.output_fn:
            outputs = self.output_fn(outputs, *spatial, time)
        return outputs

    def model_step(self, batch, batch_idx=0):
        loss = 0.0
        for loss_fn, data in batch.items():
            loss, preds = loss_fn(data, loss, **self.functions)
        return loss, preds

    def training_step(self, batch, batch_idx):
        loss, pred = self.model_step(batch, batch_idx)
        self.log("train/loss", loss, on_step=False, on_epoch=True, prog_bar=True)
        return loss

    def eval_step(self, batch):
        loss_fn = self.trainer.datamodule.loss_fn
        solution = self.trainer.datamodule.solution_names
        with torch.set_grad_enabled(True):
            x, t, u = batch
            loss, preds = self.model_step({loss_fn: batch})
            error_dict = {name: relative_l2_error(preds[name], u[name]) for name in solution}
        return loss, error_dict, preds

    def validation_step(self, batch, batch_idx):
        loss, error_dict, preds = self.eval_step(batch)
        self.log("val/loss", loss, on_step=False, on_epoch=True, prog_bar=True)
        for solution_name, error in error_dict.items():
            self.log(f"val/error_{solution_name}", error, prog_bar=True)

    def test_step(self, batch, batch_idx):
        loss, error_dict, preds = self.eval_step(batch)
        self.log("test/loss", loss, on_step=False, on_epoch=True, prog_bar=True)
        for solution_name, error in error_dict.items():
            self.log(f"test/error_{solution_name}", error, prog_bar=True)

    def predict_step(self, batch, batch_idx):
        loss, error, preds = self.eval_step(batch)
        return preds

    def configure_optimizers(self):
        return {"optimizer": self.optimizer(self.parameters())}


data = SimpleNamespace(PointCloudData=PointCloudData, PointCloud=PointCloud, MeshSampler=MeshSampler,
                       PINNDataModule=PINNDataModule, PINNDataLoader=PINNDataLoader)
models = SimpleNamespace(FCN=FCN, PINNModule=PINNModule)
utils = SimpleNamespace(gradient=gradient, mse=mse, sse=sse, relative_l2_error=relative_l2_error)
