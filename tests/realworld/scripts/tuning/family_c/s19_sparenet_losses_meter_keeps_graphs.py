# source: https://github.com/microsoft/SpareNet/issues/12
# style: vision
# cause: graph_kept_alive
# line: 161
# expert: sparenetRunner.train_step hands the loss tensors themselves (coarse_loss * 1000, refine_loss * 1000) to the AverageMeter, whose update keeps them in self._val and adds them into self._sum, so every batch's graph stays referenced for the whole epoch and GPU memory climbs until CUDA runs out after about two epochs. As the reporter proposed and the maintainers fixed in commit 8bbc200 ("fix: losses take item"), the meter must be given Python numbers: self.losses.update([coarse_loss.item() * 1000, refine_loss.item() * 1000]).
import types
from time import time

import torch
import torch.nn as nn

torch.manual_seed(0)


# ---- runners/misc.py ----
class AverageMeter(object):
    """Computes and stores the average and current value"""

    def __init__(self, items=None):
        self.items = items
        self.n_items = 1 if items is None else len(items)
        self.reset()

    def reset(self):
        self._val = [0] * self.n_items
        self._sum = [0] * self.n_items
        self._count = [0] * self.n_items

    def update(self, values):
        if type(values).__name__ == "list":
            for idx, v in enumerate(values):
                self._val[idx] = v
                self._sum[idx] += v
                self._count[idx] += 1
        else:
            self._val[0] = values
            self._sum[0] += values
            self._count[0] += 1

    def val(self, idx=None):
        if idx is None:
            return self._val[0] if self.items is None else [self._val[i] for i in range(self.n_items)]
        else:
            return self._val[idx]

    def avg(self, idx=None):
        if idx is None:
            return self._sum[0] / self._count[0] if self.items is None else [self._sum[i] / self._count[i] for i in range(self.n_items)]
        else:
            return self._sum[idx] / self._count[idx]


# ---- stand-ins for the CUDA chamfer extension, the SpareNet model and the ShapeNet loader ----
class ChamferDistanceMean(nn.Module):
    def forward(self, xyz1, xyz2):
        d = torch.cdist(xyz1, xyz2) ** 2
        return (d.min(dim=2)[0].mean(dim=1) + d.min(dim=1)[0].mean(dim=1)) / 2


class ChamferDistance(nn.Module):
    def forward(self, xyz1, xyz2):
        d = torch.cdist(xyz1, xyz2) ** 2
        return d.min(dim=2)[0], d.min(dim=1)[0]


class SpareNetGenerator(nn.Module):
    """Tiny point-completion net with the same outputs as SpareNet: coarse, middle, refined clouds."""

    def __init__(self, num_points=128, bottleneck=64):
        super().__init__()
        self.num_points = num_points
        self.encoder = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, bottleneck))
        self.decoder = nn.Sequential(nn.Linear(bottleneck, 128), nn.ReLU(), nn.Linear(128, num_points * 3))
        self.refine = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, data):
        partial = data["partial_cloud"]
        feat = self.encoder(partial).max(dim=1)[0]
        coarse = self.decoder(feat).view(-1, self.num_points, 3)
        expansion_penalty = coarse.var(dim=1).sum(dim=1)
        middle = coarse + 0.1 * self.refine(coarse)
        refine = middle + 0.1 * self.refine(middle)
        return coarse, middle, refine, expansion_penalty


def shapenet_loader(n_batches=10, batch_size=4):
    for i in range(n_batches):
        gt = torch.rand(batch_size, 128, 3)
        data = {"partial_cloud": gt[:, :64] + 0.01 * torch.randn(batch_size, 64, 3), "gtcloud": gt}
        yield i, (None, None, None, data)


# ---- runners/base_runner.py (the training part) ----
class BaseRunner(object):
    def __init__(self, config, logger):
        self._config = config
        self.logger = logger
        self.gpu_ids = ["cpu"]
        self.loss = {}
        self.losses = None
        self.epoch_idx = 0

    @property
    def config(self):
        return self._config

    def build_models(self):
        self.models = SpareNetGenerator()
        self.optimizers = torch.optim.Adam(self.models.parameters(), lr=self.config.TRAIN.learning_rate)

    def train_step(self, data):
        raise NotImplementedError

    def train(self):
        self.losses.reset()
        self.epoch_start_time = time()
        for items in shapenet_loader():
            self.train_step(items)

    def train_finish(self):
        print("[Epoch %d/%d] Losses = %s" % (self.epoch_idx, self.config.TRAIN.n_epochs,
                                             ["%.4f" % l for l in self.losses.avg()]))

    def runner(self):
        self.build_models()
        self.build_train_loss()
        for epoch_idx in range(1, self.config.TRAIN.n_epochs + 1):
            self.epoch_idx = epoch_idx
            self.train()
            self.train_finish()


# ---- runners/sparenet_runner.py ----
class sparenetRunner(BaseRunner):
    """Define the SpareNet runner class"""

    def __init__(self, config, logger):
        super().__init__(config, logger)
        self.losses = AverageMeter(["CoarseLoss", "RefineLoss"])
        self.chamfer_dist = None
        self.chamfer_dist_mean = None

    def build_train_loss(self):
        # Set up loss functions
        self.chamfer_dist = ChamferDistance()
        self.chamfer_dist_mean = ChamferDistanceMean()

    def train_step(self, items):
        _, (_, _, _, data) = items
        for k, v in data.items():
            data[k] = v.float().to(self.gpu_ids[0])

        _loss, _, _, _, refine_loss, coarse_loss = self.completion(data)
        self.models.zero_grad()
        _loss.backward()
        self.optimizers.step()

        self.loss["coarse_loss"] = coarse_loss * 1000
        self.loss["refine_loss"] = refine_loss * 1000
        self.loss["rec_loss"] = _loss
        self.losses.update([coarse_loss * 1000, refine_loss * 1000])

    def completion(self, data):
        (coarse_ptcloud, middle_ptcloud, refine_ptcloud, expansion_penalty) = self.models(data)

        if self.config.NETWORK.metric == "chamfer":
            coarse_loss = self.chamfer_dist_mean(coarse_ptcloud, data["gtcloud"]).mean()
            middle_loss = self.chamfer_dist_mean(middle_ptcloud, data["gtcloud"]).mean()
            refine_loss = self.chamfer_dist_mean(refine_ptcloud, data["gtcloud"]).mean()
        else:
            raise Exception("unknown training metric")

        _loss = coarse_loss + middle_loss + refine_loss + expansion_penalty.mean() * 0.1

        if self.config.NETWORK.use_consist_loss:
            dist1, _ = self.chamfer_dist(refine_ptcloud, data["gtcloud"])
            cd_input2fine = torch.mean(dist1).mean()
            _loss += cd_input2fine * 0.5

        return _loss, refine_ptcloud, middle_ptcloud, coarse_ptcloud, refine_loss, coarse_loss


cfg = types.SimpleNamespace(
    TRAIN=types.SimpleNamespace(n_epochs=2, learning_rate=1e-3),
    NETWORK=types.SimpleNamespace(metric="chamfer", use_consist_loss=True),
)
runner = sparenetRunner(cfg, logger=None)
runner.runner()
