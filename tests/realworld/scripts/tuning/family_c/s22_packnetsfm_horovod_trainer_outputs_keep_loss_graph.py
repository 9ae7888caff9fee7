# source: https://github.com/TRI-ML/packnet-sfm/pull/51
# style: vision
# cause: graph_kept_alive
# line: 223
# expert: HorovodTrainer.train appends every training_step output dict to `outputs` for training_epoch_end, and output['loss'] is still attached to its batch's forward graph, so the graphs of all batches of the epoch stay alive until the epoch ends (memory leak). The merged fix (#51 "Fix memory leak") detaches the loss before storing it: output['loss'] = output['loss'].detach(); outputs.append(output).
# packnet_sfm/trainers/horovod_trainer.py (HorovodTrainer.train), base_trainer.py (progress bar),
# utils/logging.py (AvgMeter), utils/reduce.py and utils/horovod.py (epoch-end averaging) and
# models/model_wrapper.py (training_step / training_epoch_end) at the PR's parent commit. horovod is
# replaced by a one-worker stand-in, the CUDA transfer by CPU, the config by a namespace, and the
# PackNet self-supervised depth model by a tiny depth net with a photometric-style L1 loss on random frames.
import os
from collections import OrderedDict
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F
from tqdm import tqdm

torch.manual_seed(0)


# ---------------- horovod.torch stand-in (one worker) ----------------
class _HorovodAllreduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, name):
        return tensor.clone()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.clone(), None


class hvd:
    class Compression:
        none = None

    @staticmethod
    def init():
        pass

    @staticmethod
    def rank():
        return 0

    @staticmethod
    def size():
        return 1

    @staticmethod
    def local_rank():
        return 0

    @staticmethod
    def allreduce(tensor, average=True, name=None):
        return _HorovodAllreduce.apply(torch.as_tensor(tensor), name)

    @staticmethod
    def DistributedOptimizer(optimizer, named_parameters=None, compression=None):
        return optimizer


# ---------------- packnet_sfm/utils/horovod.py, utils/reduce.py, utils/logging.py ----------------
def reduce_value(value, average, name):
    """Reduce the mean value of a tensor from all GPUs"""
    return hvd.allreduce(value, average=average, name=name)


def reduce_dict(data, to_item=False):
    """Reduce the mean values of a dictionary from all GPUs"""
    for key, val in data.items():
        data[key] = reduce_value(data[key], average=True, name=key)
        if to_item:
            data[key] = data[key].item()
    return data


def average_key(batch_list, key):
    """Average key in a list of batches"""
    values = [batch[key] for batch in batch_list]
    return sum(values) / len(values)


def average_sub_key(batch_list, key, sub_key):
    """Average subkey in a dictionary in a list of batches"""
    values = [batch[key][sub_key] for batch in batch_list]
    return sum(values) / len(values)


def average_loss_and_metrics(batch_list, prefix):
    """Average loss and metrics values in a list of batches"""
    values = OrderedDict()
    key = 'loss'
    values['{}-{}'.format(prefix, key)] = \
        average_key(batch_list, key)
    key = 'metrics'
    for sub_key in batch_list[0][key].keys():
        values['{}-{}'.format(prefix, sub_key)] = \
            average_sub_key(batch_list, key, sub_key)
    return values


class AvgMeter:
    """Average meter for logging"""
    def __init__(self, n_max=100):
        self.n_max = n_max
        self.values = []

    def __call__(self, value):
        """Appends new value and returns average"""
        self.values.append(value)
        if len(self.values) > self.n_max:
            self.values.pop(0)
        return self.get()

    def get(self):
        """Get current average"""
        return sum(self.values) / len(self.values)


# ---------------- packnet_sfm/trainers/base_trainer.py ----------------
def sample_to_cuda(data, dtype=None):
    if isinstance(data, str):
        return data
    elif isinstance(data, dict):
        return {key: sample_to_cuda(data[key], dtype) for key in data.keys()}
    elif isinstance(data, list):
        return [sample_to_cuda(val, dtype) for val in data]
    else:
        # only convert floats (e.g., to half), otherwise preserve (e.g, ints)
        dtype = dtype if torch.is_floating_point(data) else None
        return data.to('cpu', dtype=dtype)  # 'cuda' in the original


class BaseTrainer:
    def __init__(self, min_epochs=0, max_epochs=50,
                 checkpoint=None, **kwargs):

        self.min_epochs = min_epochs
        self.max_epochs = max_epochs

        self.checkpoint = checkpoint
        self.module = None

    @property
    def is_rank_0(self):
        return self.proc_rank == 0

    def train_progress_bar(self, dataloader, config, ncols=120):
        return tqdm(enumerate(dataloader, 0),
                    unit=' images', unit_scale=self.world_size * config.batch_size,
                    total=len(dataloader), smoothing=0,
                    disable=not self.is_rank_0, ncols=ncols,
                    )


# ---------------- packnet_sfm/trainers/horovod_trainer.py ----------------
class HorovodTrainer(BaseTrainer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

        hvd.init()
        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", 1)))

        self.avg_loss = AvgMeter(50)
        self.dtype = kwargs.get("dtype", None)  # just for test for now

    @property
    def proc_rank(self):
        return hvd.rank()

    @property
    def world_size(self):
        return hvd.size()

    def fit(self, module):

        # Prepare module for training
        module.trainer = self
        # Configure optimizer and scheduler
        module.configure_optimizers()

        # Create distributed optimizer
        compression = hvd.Compression.none
        optimizer = hvd.DistributedOptimizer(module.optimizer,
            named_parameters=module.named_parameters(), compression=compression)
        scheduler = module.scheduler

        # Get train dataloader
        train_dataloader = module.train_dataloader()

        # Epoch loop
        for epoch in range(module.current_epoch, self.max_epochs):
            # Train
            print(self.train(train_dataloader, module, optimizer))
            # Update current epoch
            module.current_epoch += 1
            # Take a scheduler step
            scheduler.step()

    def train(self, dataloader, module, optimizer):
        # Set module to train
        module.train()
        # Shuffle dataloader sampler
        if hasattr(dataloader.sampler, "set_epoch"):
            dataloader.sampler.set_epoch(module.current_epoch)
        # Prepare progress bar
        progress_bar = self.train_progress_bar(
            dataloader, module.config.datasets.train)
        # Start training loop
        outputs = []
        # For all batches
        for i, batch in progress_bar:
            # Reset optimizer
            optimizer.zero_grad()
            # Send samples to GPU and take a training step
            batch = sample_to_cuda(batch)
            output = module.training_step(batch, i)
            # Backprop through loss and take an optimizer step
            output['loss'].backward()
            optimizer.step()
            # Append output to list of outputs
            outputs.append(output)
            # Update progress bar if in rank 0
            if self.is_rank_0:
                progress_bar.set_description(
                    'Epoch {} | Avg.Loss {:.4f}'.format(module.current_epoch,
                        self.avg_loss(output['loss'].item())))
        # Return outputs for epoch end
        return module.training_epoch_end(outputs)


# ---------------- tiny stand-in for the PackNet self-supervised depth model ----------------
class TinySelfSupModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth_net = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ELU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ELU(),
            nn.Conv2d(16, 1, 3, padding=1), nn.Sigmoid())
        self.pose_net = nn.Sequential(nn.Conv2d(6, 8, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))

    def forward(self, batch, progress=0.0):
        inv_depth = self.depth_net(batch['rgb'])
        shift = torch.tanh(self.pose_net(torch.cat([batch['rgb'], batch['rgb_context'][0]], 1)))
        theta = torch.zeros(shift.shape[0], 2, 3)
        theta[:, 0, 0] = 1.0
        theta[:, 1, 1] = 1.0
        theta = theta + torch.cat([torch.zeros(shift.shape[0], 2, 2), (shift * 0.1).unsqueeze(-1)], 2)
        grid = F.affine_grid(theta, batch['rgb'].shape, align_corners=False)
        warped = F.grid_sample(batch['rgb_context'][0], grid * (0.5 + inv_depth.permute(0, 2, 3, 1)),
                               align_corners=False)
        photometric_loss = (warped - batch['rgb']).abs().mean()
        return {'loss': photometric_loss, 'metrics': {}}


class FrameDataset(torch.utils.data.Dataset):
    def __init__(self, n=48):
        g = torch.Generator().manual_seed(0)
        self.rgb = torch.rand(n, 3, 32, 48, generator=g)
        self.context = torch.rand(n, 3, 32, 48, generator=g)

    def __len__(self):
        return len(self.rgb)

    def __getitem__(self, i):
        return {'idx': i, 'rgb': self.rgb[i], 'rgb_context': [self.context[i]]}


# ---------------- packnet_sfm/models/model_wrapper.py (training part) ----------------
class ModelWrapper(torch.nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.current_epoch = 0
        self.progress = 0.0
        self.logger = None
        self.logs = {}
        self.model = TinySelfSupModel()
        self.train_dataset = FrameDataset()

    def configure_optimizers(self):
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-4)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=30, gamma=0.5)

    def train_dataloader(self):
        return torch.utils.data.DataLoader(self.train_dataset, shuffle=True,
                                           batch_size=self.config.datasets.train.batch_size)

    def training_step(self, batch, *args):
        """Processes a training batch."""
        output = self.model(batch, progress=self.progress)
        return {
            'loss': output['loss'],
            'metrics': output['metrics']
        }

    def training_epoch_end(self, output_batch):
        """Finishes a training epoch."""

        # Calculate and reduce average loss and metrics per GPU
        loss_and_metrics = average_loss_and_metrics(output_batch, 'avg_train')
        loss_and_metrics = reduce_dict(loss_and_metrics, to_item=True)

        return {
            **loss_and_metrics
        }


if __name__ == "__main__":
    config = SimpleNamespace(datasets=SimpleNamespace(train=SimpleNamespace(batch_size=4)))
    model_wrapper = ModelWrapper(config)
    trainer = HorovodTrainer(max_epochs=2)
    trainer.fit(model_wrapper)
