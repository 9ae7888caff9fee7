# source: https://github.com/kwea123/ngp_pl/issues/100
# style: vision
# cause: tensor_reused_across_iterations
# line: 98
# expert: With ray_sampling_strategy 'same_image' the dataset returned a scalar image index (np.random.choice(len(self.poses), 1)[0]), so self.poses[batch['img_idxs']] is a view of the registered poses buffer and the optimize_ext in-place pose refinement writes dR/dT's graph into the buffer itself; the next training step backpropagates through that stale graph. Fix from the thread: sample img_idxs = np.random.choice(len(self.poses), 1) (an index array), so indexing copies the pose.
# ngp_pl (train.py, datasets/base.py, datasets/ray_utils.py at 2bf4b6a) trimmed to run on CPU:
# pytorch-lightning, apex FusedAdam, kornia, einops, the CUDA ray marcher (vren) and the
# datasets are replaced by tiny code of the same shape; --optimize_ext --ray_sampling_strategy same_image.
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)


def rearrange(x, pattern):
    # stand-in for einops.rearrange, only the patterns used below
    if pattern == 'c -> 1 c':
        return x.unsqueeze(0)
    if pattern == '1 c d -> c d':
        return x.squeeze(0)
    if pattern == 'b -> b 1 1':
        return x[:, None, None]
    if pattern == 'n c -> n 1 c':
        return x.unsqueeze(1)
    if pattern == 'n a b -> n b a':
        return x.transpose(1, 2)
    if pattern == 'n 1 c -> n c':
        return x.squeeze(1)
    raise ValueError(pattern)


# ---------------- datasets/ray_utils.py ----------------
def get_rays(directions, c2w):
    """
    Get ray origin and directions in world coordinate for all pixels in one image.
    """
    if c2w.ndim==2:
        # Rotate ray directions from camera coordinate to the world coordinate
        rays_d = directions @ c2w[:, :3].T
    else:
        rays_d = rearrange(directions, 'n c -> n 1 c') @ \
                 rearrange(c2w[..., :3], 'n a b -> n b a')
        rays_d = rearrange(rays_d, 'n 1 c -> n c')
    # The origin of all rays is the camera origin in world coordinate
    rays_o = c2w[..., 3].expand_as(rays_d)

    return rays_o, rays_d


def axisangle_to_R(v):
    """
    Convert an axis-angle vector to rotation matrix
    """
    v_ndim = v.ndim
    if v_ndim==1:
        v = rearrange(v, 'c -> 1 c')
    zero = torch.zeros_like(v[:, :1]) # (B, 1)
    skew_v0 = torch.cat([zero, -v[:, 2:3], v[:, 1:2]], 1) # (B, 3)
    skew_v1 = torch.cat([v[:, 2:3], zero, -v[:, 0:1]], 1)
    skew_v2 = torch.cat([-v[:, 1:2], v[:, 0:1], zero], 1)
    skew_v = torch.stack([skew_v0, skew_v1, skew_v2], dim=1) # (B, 3, 3)

    norm_v = rearrange(torch.norm(v, dim=1)+1e-7, 'b -> b 1 1')
    eye = torch.eye(3, device=v.device)
    R = eye + (torch.sin(norm_v)/norm_v)*skew_v + \
        ((1-torch.cos(norm_v))/norm_v**2)*(skew_v@skew_v)
    if v_ndim==1:
        R = rearrange(R, '1 c d -> c d')
    return R


# ---------------- datasets/base.py ----------------
class BaseDataset(Dataset):
    """
    Define length and sampling method
    """
    def __init__(self, root_dir, split='train', downsample=1.0):
        self.root_dir = root_dir
        self.split = split
        self.downsample = downsample

    def __len__(self):
        if self.split.startswith('train'):
            return 1000
        return len(self.poses)

    def __getitem__(self, idx):
        if self.split.startswith('train'):
            # training pose is retrieved in train.py
            if self.ray_sampling_strategy == 'all_images': # randomly select images
                img_idxs = np.random.choice(len(self.poses), self.batch_size)
            elif self.ray_sampling_strategy == 'same_image': # randomly select ONE image
                img_idxs = np.random.choice(len(self.poses), 1)[0]
            # randomly select pixels
            pix_idxs = np.random.choice(self.img_wh[0]*self.img_wh[1], self.batch_size)
            rays = self.rays[img_idxs, pix_idxs]
            sample = {'img_idxs': img_idxs, 'pix_idxs': pix_idxs,
                      'rgb': rays[:, :3]}
        else:
            sample = {'pose': self.poses[idx], 'img_idxs': idx}
            rays = self.rays[idx]
            sample['rgb'] = rays[:, :3]

        return sample


class SyntheticDataset(BaseDataset):
    # stand-in for NSVFDataset/ColmapDataset: 4 posed 8x8 images of random colours
    def __init__(self, root_dir, split='train', downsample=1.0):
        super().__init__(root_dir, split, downsample)
        g = torch.Generator().manual_seed(1)
        self.img_wh = (8, 8)
        W, H = self.img_wh
        fx = fy = 8.0
        u, v = torch.meshgrid(torch.arange(W, dtype=torch.float32),
                              torch.arange(H, dtype=torch.float32), indexing='xy')
        self.directions = torch.stack([(u-W/2+0.5)/fx, (v-H/2+0.5)/fy,
                                       torch.ones_like(u)], -1).reshape(-1, 3)
        poses = torch.eye(3, 4).repeat(4, 1, 1)
        poses[:, :, 3] = torch.randn(4, 3, generator=g) * 0.1
        self.poses = poses
        self.rays = torch.rand(4, W*H, 3, generator=g)


dataset_dict = {'nsvf': SyntheticDataset}


# ---------------- models (stand-in for NGP + CUDA volume rendering) ----------------
class NGP(nn.Module):
    def __init__(self, scale, rgb_act='Sigmoid'):
        super().__init__()
        self.scale = scale
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x):
        h = self.net(x)
        return torch.nn.functional.softplus(h[..., 0]), torch.sigmoid(h[..., 1:])


def render(model, rays_o, rays_d, **kwargs):
    ts = torch.linspace(0.1, 1.0, 8)
    xyzs = rays_o[:, None] + rays_d[:, None] * ts[None, :, None]   # (N, 8, 3)
    sigmas, rgbs = model(xyzs)
    alphas = 1 - torch.exp(-sigmas * (1.0 / 8))
    trans = torch.cumprod(torch.cat([torch.ones_like(alphas[:, :1]), 1 - alphas[:, :-1] + 1e-10], 1), 1)
    ws = alphas * trans
    return {'rgb': (ws[..., None] * rgbs).sum(1), 'opacity': ws.sum(1)}


class NeRFLoss(nn.Module):
    def __init__(self, lambda_opacity=1e-3, lambda_distortion=1e-3):
        super().__init__()

        self.lambda_opacity = lambda_opacity
        self.lambda_distortion = lambda_distortion

    def forward(self, results, target, **kwargs):
        d = {}
        d['rgb'] = (results['rgb']-target['rgb'])**2

        o = results['opacity']+1e-10
        # encourage opacity to be either 0 or 1 to avoid floater
        d['opacity'] = self.lambda_opacity*(-o*torch.log(o))

        return d


# ---------------- train.py ----------------
class NeRFSystem(nn.Module):  # LightningModule in the repo
    def __init__(self, hparams):
        super().__init__()
        self.hparams = hparams

        self.loss = NeRFLoss(lambda_distortion=self.hparams.distortion_loss_w)

        rgb_act = 'None' if self.hparams.use_exposure else 'Sigmoid'
        self.model = NGP(scale=self.hparams.scale, rgb_act=rgb_act)
        self.device = torch.device('cpu')

    def forward(self, batch, split):
        if split=='train':
            poses = self.poses[batch['img_idxs']]
            directions = self.directions[batch['pix_idxs']]
        else:
            poses = batch['pose']
            directions = self.directions

        if self.hparams.optimize_ext:
            dR = axisangle_to_R(self.dR[batch['img_idxs']])
            poses[..., :3] = dR @ poses[..., :3]
            poses[..., 3] += self.dT[batch['img_idxs']]

        rays_o, rays_d = get_rays(directions, poses)

        kwargs = {'test_time': split!='train',
                  'random_bg': self.hparams.random_bg}

        return render(self.model, rays_o, rays_d, **kwargs)

    def setup(self, stage):
        dataset = dataset_dict[self.hparams.dataset_name]
        kwargs = {'root_dir': self.hparams.root_dir,
                  'downsample': self.hparams.downsample}
        self.train_dataset = dataset(split=self.hparams.split, **kwargs)
        self.train_dataset.batch_size = self.hparams.batch_size
        self.train_dataset.ray_sampling_strategy = self.hparams.ray_sampling_strategy

    def configure_optimizers(self):
        # define additional parameters
        self.register_buffer('directions', self.train_dataset.directions.to(self.device))
        self.register_buffer('poses', self.train_dataset.poses.to(self.device))

        if self.hparams.optimize_ext:
            N = len(self.train_dataset.poses)
            self.register_parameter('dR',
                nn.Parameter(torch.zeros(N, 3, device=self.device)))
            self.register_parameter('dT',
                nn.Parameter(torch.zeros(N, 3, device=self.device)))

        net_params = []
        for n, p in self.named_parameters():
            if n not in ['dR', 'dT']: net_params += [p]

        opts = []
        self.net_opt = torch.optim.Adam(net_params, self.hparams.lr, eps=1e-15)  # FusedAdam
        opts += [self.net_opt]
        if self.hparams.optimize_ext:
            opts += [torch.optim.Adam([self.dR, self.dT], 1e-6)] # learning rate is hard-coded

        return opts

    def train_dataloader(self):
        return DataLoader(self.train_dataset,
                          num_workers=0,
                          batch_size=None)

    def training_step(self, batch, batch_nb, *args):
        results = self(batch, split='train')
        loss_d = self.loss(results, batch)
        loss = sum(lo.mean() for lo in loss_d.values())
        return loss


if __name__ == '__main__':
    hparams = argparse.Namespace(
        root_dir='data/Synthetic_NeRF/Lego', dataset_name='nsvf', split='train',
        downsample=1.0, batch_size=64, ray_sampling_strategy='same_image',
        optimize_ext=True, distortion_loss_w=0, use_exposure=False, random_bg=False,
        scale=0.5, lr=1e-2, num_epochs=1)
    system = NeRFSystem(hparams)
    system.setup('fit')
    opts = system.configure_optimizers()

    # stand-in for Lightning's Trainer(precision=16) automatic optimisation with two
    # optimizers (training_step runs under autocast, once per optimizer for every batch)
    for batch_nb, batch in enumerate(system.train_dataloader()):
        for optimizer_idx, opt in enumerate(opts):
            with torch.autocast('cpu', dtype=torch.bfloat16):
                loss = system.training_step(batch, batch_nb, optimizer_idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if batch_nb == 9:
            break
    print('trained', batch_nb + 1, 'steps, loss', loss.item())
