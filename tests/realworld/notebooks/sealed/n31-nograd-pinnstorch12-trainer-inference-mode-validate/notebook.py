# source: https://github.com/rezaakb/pinns-torch/issues/12 ("Output function cannot calculate gradient": running the Navier-Stokes example in a Jupyter notebook as the tutorial shows, the model trains, but validating or testing fails because output_fn's gradient sees outputs that do not require grad; the reporter found that pinnstorch's Hydra trainer config sets inference_mode: false while lightning's Trainer defaults to inference_mode=True, and fixed it with pl.Trainer(inference_mode=False)). The cells follow tutorials/0-Schrodinger.ipynb with read_data_fn, output_fn, pde_fn, the datasets, net and extra variables of examples/navier_stokes (train.py, configs/config.yaml); _stub_pinnstorch.py is pinnstorch cut down (PointCloud, MeshSampler, FCN, PINNModule, PINNDataModule, utils.gradient, no CUDA graph / jit); a seeded synthetic wake on 60 points x 5 time steps instead of cylinder_nektar_wake.mat, 3 hidden layers of 20 instead of 8, 3 epochs, no logger/checkpoint files
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 6 line 1
# expert: the notebook's pl.Trainer is created with lightning's default inference_mode=True, so trainer.validate runs validation_step under torch.inference_mode(), where PINNModule.eval_step's torch.set_grad_enabled(True) cannot bring back autograd and output_fn's pinnstorch.utils.gradient(outputs['psi'], y) gets a psi without grad_fn (trainer.fit passes because its own validation loop uses no_grad, which set_grad_enabled(True) overrides); as in pinnstorch's trainer config, create the trainer with inference_mode=False.
# %%
from typing import Dict

import torch
import numpy as np
import lightning.pytorch as pl

import _stub_pinnstorch as pinnstorch  # stands in for pinnstorch (pip install pinnstorch)

torch.manual_seed(0)
np.random.seed(0)
# %%
def read_data_fn(root_path):
    # synthetic stand-in for pinnstorch.utils.load_data(root_path, 'cylinder_nektar_wake.mat')
    rng = np.random.RandomState(0)
    X_star = np.hstack([rng.uniform(1.0, 8.0, (60, 1)), rng.uniform(-2.0, 2.0, (60, 1))])  # N x 2
    t = np.linspace(0.0, 1.0, 5)[:, None]  # T x 1
    x = X_star[:, 0:1] # N x 1
    y = X_star[:, 1:2] # N x 1
    exact_u = 1.0 + 0.1 * np.cos(y) * np.sin(x - t.T)  # N x T
    exact_v = 0.1 * np.sin(y) * np.cos(x - t.T)  # N x T
    exact_p = -0.5 * (exact_u ** 2 + exact_v ** 2)  # N x T
    return pinnstorch.data.PointCloudData(spatial = [x, y],
                                          time = [t],
                                          solution = {'u': exact_u, 'v': exact_v, 'p': exact_p})

mesh = pinnstorch.data.PointCloud(root_dir='./data',
                                  read_data_fn=read_data_fn)
# %%
N_train = 200
me_s = pinnstorch.data.MeshSampler(mesh = mesh,
                                   num_sample = N_train,
                                   solution = ['u', 'v'],
                                   collection_points = ['f_u', 'f_v'])
val_s = pinnstorch.data.MeshSampler(mesh = mesh,
                                    solution = ['u', 'v', 'p'])
# %%
net = pinnstorch.models.FCN(layers = [3, 20, 20, 20, 2],
                            output_names = ['psi', 'p'],
                            lb=mesh.lb,
                            ub=mesh.ub)
# %%
def output_fn(outputs: Dict[str, torch.Tensor],
              x: torch.Tensor,
              y: torch.Tensor,
              t: torch.Tensor):
    """Define `output_fn` function that will be applied to outputs of net."""
    outputs['u'] = pinnstorch.utils.gradient(outputs['psi'], y)[0]
    outputs['v'] = - pinnstorch.utils.gradient(outputs['psi'], x)[0]

    return outputs


def pde_fn(outputs: Dict[str, torch.Tensor],
           x: torch.Tensor,
           y: torch.Tensor,
           t: torch.Tensor,
           extra_variables: Dict[str, torch.Tensor]):
    """Define the partial differential equations (PDEs)."""
    u_x, u_y, u_t = pinnstorch.utils.gradient(outputs['u'], [x, y, t])
    u_xx = pinnstorch.utils.gradient(u_x, x)[0]
    u_yy = pinnstorch.utils.gradient(u_y, y)[0]

    v_x, v_y, v_t = pinnstorch.utils.gradient(outputs['v'], [x, y, t])
    v_xx = pinnstorch.utils.gradient(v_x, x)[0]
    v_yy = pinnstorch.utils.gradient(v_y, y)[0]

    p_x, p_y = pinnstorch.utils.gradient(outputs['p'], [x, y])

    outputs['f_u'] = u_t + extra_variables['l1'] * \
                     (outputs['u'] * u_x + outputs['v'] * u_y) + \
                     p_x - extra_variables['l2'] * (u_xx + u_yy)

    outputs['f_v'] = v_t + extra_variables['l1'] * \
                     (outputs['u'] * v_x + outputs['v'] * v_y) + \
                     p_y - extra_variables['l2'] * (v_xx + v_yy)

    return outputs
# %%
train_datasets = [me_s]
val_dataset = val_s
datamodule = pinnstorch.data.PINNDataModule(train_datasets = train_datasets,
                                            val_dataset = val_dataset,
                                            pred_dataset = val_s)

model = pinnstorch.models.PINNModule(net = net,
                                     pde_fn = pde_fn,
                                     output_fn = output_fn,
                                     extra_variables = {'l1': 0.0, 'l2': 0.0},
                                     loss_fn = 'mse')
# %%
trainer = pl.Trainer(accelerator='cpu', devices=1, max_epochs=3,
                     logger=False, enable_checkpointing=False, enable_progress_bar=False)
# %%
trainer.fit(model=model, datamodule=datamodule)
# %%
trainer.validate(model=model, datamodule=datamodule)
