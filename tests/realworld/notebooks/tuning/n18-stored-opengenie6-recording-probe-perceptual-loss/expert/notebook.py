# %%
from uuid import uuid4
from collections import defaultdict
from typing import Dict, List, Tuple, Iterable
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn.functional import mse_loss
torch.manual_seed(0)
# %%
# genie/module/misc.py (einops.rearrange 'b ... -> b (...)' written as flatten(1))
class NamingProbe:

    def __init__(self, name_attr : str = 'name') -> None:
        super().__init__()
        self.depth = -1
        self.name_attr = name_attr

    def __call__(self, module : nn.Module, inp : Tuple[Tensor, ...], out : Tensor) -> None:
        self.depth += 1
        # Build unique module name as identifier
        name = f'{module._get_name().lower()}_{self.depth}_{uuid4().hex[:6]}'
        setattr(module, self.name_attr, name)

class RecordingProbe:

    def __init__(self) -> None:
        self._data : Dict[str, List[Tensor]] = defaultdict(list)

    @property
    def features(self) -> Dict[str, Tensor]:
        return {k: torch.cat(v) for k, v in self._data.items()}

    def __call__(self, module : nn.Module, inp : Tuple[Tensor, ...], out : Tensor) -> None:
        '''Custom torch hook designed to record hidden activations.
        NOTE: This function should be called (implicitly) by the
        forward hook registered on the desired module.
        '''
        # Get the name of the module
        name = module.name if hasattr(module, 'name') else module._get_name().lower()

        feat = out.clone()
        feat = feat.flatten(1).contiguous()

        self._data[name].append(feat)

    def clean(self) -> None:
        '''Clear the recorded data.'''
        self._data.clear()
# %%
# genie/module/loss.py PerceptualLoss with a small frozen VGG-like network instead of torchvision's vgg16
def pick_frames(video : Tensor, frames_idxs : Tensor) -> Tensor:
    b, c, t, h, w = video.shape
    batch_idxs = torch.repeat_interleave(torch.arange(b, device=video.device), frames_idxs.numel() // b)
    return video[batch_idxs, :, frames_idxs, ...]

def get_model(model_name, weights=None):
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())

class PerceptualLoss(nn.Module):

    def __init__(self, model_name='vgg16', model_weights='DEFAULT', num_frames=2, feat_layers=('1', '3', '6')):
        super().__init__()
        self.num_frames = num_frames
        self.percept_model = get_model(model_name, weights=model_weights)

        # Freeze the perceptual model
        self.percept_model.eval()
        for param in self.percept_model.parameters():
            param.requires_grad = False

        # Attach the naming probe to make sure every layer has a unique identifier
        self.namer = NamingProbe()
        handles = [module.register_forward_hook(self.namer) for name, module in self.percept_model.named_modules()]
        with torch.no_grad():
            _ = self.percept_model(torch.randn(1, 3, 16, 16))
        for handle in handles: handle.remove()

        # Attach hooks to the model at desired locations
        self.probe = RecordingProbe()
        self.hook_handles = [
            module.register_forward_hook(self.probe)
            for name, module in self.percept_model.named_modules()
            if name in feat_layers
        ]

    def forward(self, rec_video : Tensor, inp_video : Tensor) -> Tensor:
        b, c, t, h, w = inp_video.shape
        frames_idxs = torch.cat([torch.randperm(t, device=inp_video.device)[:self.num_frames] for _ in range(b)])

        fake_frames = pick_frames(rec_video, frames_idxs=frames_idxs)
        real_frames = pick_frames(inp_video, frames_idxs=frames_idxs)

        # Get the perceptual features for the input
        _ = self.percept_model(fake_frames)
        fake_feat = self.probe.features
        self.probe.clean()

        # Get the perceptual features for the target
        _ = self.percept_model(real_frames)
        real_feat = self.probe.features
        self.probe.clean()

        # Perceptual loss is the average MSE between the features
        return torch.stack([mse_loss(fake_feat[k], real_feat[k]) for k in fake_feat.keys()]).mean()
# %%
# a tiny video autoencoder standing in for the VideoTokenizer, and random videos (b, c, t, h, w)
tokenizer = nn.Sequential(nn.Conv3d(3, 8, 3, padding=1), nn.GELU(), nn.Conv3d(8, 3, 3, padding=1))
perceptual = PerceptualLoss()
videos = [torch.rand(2, 3, 4, 16, 16) for _ in range(3)]
# %%
# fine-tune the decoder with the perceptual term only
optimizer = torch.optim.Adam(tokenizer.parameters(), lr=1e-3)
for step, video in enumerate(videos):
    rec_video = tokenizer(video)
    loss = perceptual(rec_video, video)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
