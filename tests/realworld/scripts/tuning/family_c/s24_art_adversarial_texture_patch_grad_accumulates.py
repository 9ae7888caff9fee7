# source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/pull/1724
# style: vision
# cause: grads_not_zeroed
# line: 106
# expert: AdversarialTexturePyTorch._train_step only calls self.estimator.model.zero_grad(), which clears the tracker's parameters but not the texture self._patch (a plain leaf tensor the attack owns), so every loss.backward() adds to the patch gradient left by all earlier steps and each signed-gradient update uses the accumulated sum. The merged fix resets the patch gradient after reading it, self._patch.grad = torch.zeros(self._patch.grad.shape, device=..., dtype=...), before the update.
# art/attacks/evasion/adversarial_texture/adversarial_texture_pytorch.py as it was before the PR
# (the _train_step of the PR's base, i.e. the current file without the two added lines), cut down to
# the patch_points=None path: the EvasionAttack base, summary writer and tqdm progress bar are left
# out, torchvision.transforms.functional.pad is replaced by the equivalent torch.nn.functional.pad
# call (torchvision is not installed), and _check_params is kept. A tiny differentiable box
# regressor with the ObjectTracker interface (predict(x, y_init) -> list of {"boxes": [F, 4]},
# channels_first=False, clip_values=(0, 1)) stands in for ART's PyTorchGoturn, and random 2-video
# clips of 3 frames at 32x32 for the tracking data; max_iter 5, CPU.
from __future__ import annotations

import logging

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
logger = logging.getLogger(__name__)


class AdversarialTexturePyTorch:
    """
    Implementation of the adversarial texture attack on object trackers in PyTorch.

    | Paper link: https://arxiv.org/abs/1904.11042
    """

    def __init__(
        self,
        estimator,
        patch_height: int,
        patch_width: int,
        x_min: int = 0,
        y_min: int = 0,
        step_size: float = 1.0 / 255.0,
        max_iter: int = 500,
        batch_size: int = 16,
        verbose: bool = True,
    ):
        import torch

        self.estimator = estimator
        self.summary_writer = None
        self.patch_height = patch_height
        self.patch_width = patch_width
        self.x_min = x_min
        self.y_min = y_min
        self.step_size = step_size
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.verbose = verbose
        self._check_params()

        self._batch_id = 0
        self._i_max_iter = 0

        self.patch_shape = (self.patch_height, self.patch_width, 3)

        if self.estimator.channels_first:
            raise ValueError("Input shape has to be either NHWC or NFHWC.")

        self.i_h_patch = 0
        self.i_w_patch = 1

        self.i_h = 1
        self.i_w = 2

        if not (self.estimator.postprocessing_defences is None or self.estimator.postprocessing_defences == []):
            raise ValueError(
                "Framework-specific implementation of Adversarial Patch attack does not yet support "
                + "postprocessing defences."
            )

        mean_value = (self.estimator.clip_values[1] - self.estimator.clip_values[0]) / 2.0 + self.estimator.clip_values[
            0
        ]
        self._initial_value = np.ones(self.patch_shape) * mean_value
        self._patch = torch.tensor(self._initial_value, requires_grad=True, device=self.estimator.device)

    def _train_step(
        self,
        videos: "torch.Tensor",
        target: list[dict[str, "torch.Tensor"]],
        y_init: "torch.Tensor",
        foreground: "torch.Tensor" | None,
        patch_points: np.ndarray | None,
    ) -> "torch.Tensor":
        import torch

        self.estimator.model.zero_grad()
        loss = self._loss(videos, target, y_init, foreground, patch_points)
        loss.backward(retain_graph=True)

        if self._patch.grad is not None:
            gradients = self._patch.grad.sign() * self.step_size
        else:
            raise ValueError("Gradient term in PyTorch model is `None`.")

        with torch.no_grad():
            self._patch[:] = torch.clamp(
                self._patch + gradients, min=self.estimator.clip_values[0], max=self.estimator.clip_values[1]
            )

        return loss

    def _predictions(
        self,
        videos: "torch.Tensor",
        y_init: "torch.Tensor",
        foreground: "torch.Tensor" | None,
        patch_points: np.ndarray | None,
    ) -> list[dict[str, "torch.Tensor"]]:
        import torch

        patched_input = self._apply_texture(videos, self._patch, foreground=foreground, patch_points=patch_points)
        patched_input = torch.clamp(
            patched_input,
            min=self.estimator.clip_values[0],
            max=self.estimator.clip_values[1],
        )

        predictions = self.estimator.predict(patched_input, y_init=y_init)

        return predictions

    def _loss(
        self,
        videos: "torch.Tensor",
        target: list[dict[str, "torch.Tensor"]],
        y_init: "torch.Tensor",
        foreground: "torch.Tensor" | None,
        patch_points: np.ndarray | None,
    ) -> "torch.Tensor":
        import torch

        y_pred = self._predictions(videos, y_init, foreground, patch_points)
        loss = torch.nn.L1Loss(reduction="sum")(y_pred[0]["boxes"].float(), target[0]["boxes"].float())
        for i in range(1, len(y_pred)):
            loss = loss + torch.nn.L1Loss(reduction="sum")(y_pred[i]["boxes"].float(), target[i]["boxes"].float())

        return loss

    def _get_patch_mask(self, nb_samples: int) -> "torch.Tensor":
        import torch

        image_mask_np = np.ones((self.patch_height, self.patch_width))

        image_mask_np = np.expand_dims(image_mask_np, axis=2)
        image_mask_np = np.broadcast_to(image_mask_np, self.patch_shape)
        image_mask = torch.Tensor(np.array(image_mask_np)).to(self.estimator.device)
        image_mask = torch.stack([image_mask] * nb_samples, dim=0)
        return image_mask

    def _apply_texture(
        self,
        videos: "torch.Tensor",
        patch: "torch.Tensor",
        foreground: "torch.Tensor" | None,
        patch_points: np.ndarray | None,
    ) -> "torch.Tensor":
        import torch

        nb_samples = videos.shape[0]
        nb_frames = videos.shape[1]

        image_mask = self._get_patch_mask(nb_samples=nb_samples)
        image_mask = image_mask.float()

        patch = patch.float()
        padded_patch = torch.stack([patch] * nb_samples)

        pad_h_before = self.x_min
        pad_h_after = int(videos.shape[self.i_h + 1] - pad_h_before - image_mask.shape[self.i_h_patch + 1])

        pad_w_before = self.y_min
        pad_w_after = int(videos.shape[self.i_w + 1] - pad_w_before - image_mask.shape[self.i_w_patch + 1])

        image_mask = image_mask.permute(0, 3, 1, 2)

        # torchvision.transforms.functional.pad(img, padding=[left, top, right, bottom], fill=0, "constant")
        image_mask = F.pad(image_mask, (pad_w_before, pad_w_after, pad_h_before, pad_h_after), mode="constant", value=0)

        image_mask = image_mask.permute(0, 2, 3, 1)

        image_mask = torch.unsqueeze(image_mask, dim=1)
        image_mask = torch.repeat_interleave(image_mask, dim=1, repeats=nb_frames)
        image_mask = image_mask.float()

        padded_patch = padded_patch.permute(0, 3, 1, 2)

        padded_patch = F.pad(padded_patch, (pad_w_before, pad_w_after, pad_h_before, pad_h_after), mode="constant", value=0)

        padded_patch = padded_patch.permute(0, 2, 3, 1)

        padded_patch = torch.unsqueeze(padded_patch, dim=1)
        padded_patch = torch.repeat_interleave(padded_patch, dim=1, repeats=nb_frames)

        padded_patch = padded_patch.float()

        inverted_mask = (
            torch.from_numpy(np.ones(shape=image_mask.shape, dtype=np.float32)).to(self.estimator.device) - image_mask
        )

        if foreground is not None:
            combined = (
                videos * inverted_mask
                + padded_patch * image_mask
                - padded_patch * ~foreground.bool()
                + videos * ~foreground.bool() * image_mask
            )
        else:
            combined = videos * inverted_mask + padded_patch * image_mask

        return combined

    def generate(  # type: ignore  # pylint: disable=signature-differs
        self, x: np.ndarray, y: list[dict[str, np.ndarray]], **kwargs
    ) -> np.ndarray:
        import torch

        shuffle = kwargs.get("shuffle", True)
        y_init = kwargs.get("y_init")
        foreground = kwargs.get("foreground")
        if foreground is None:
            foreground = np.ones_like(x)
        patch_points = kwargs.get("patch_points")

        class TrackingDataset(torch.utils.data.Dataset):
            """
            Object tracking dataset in PyTorch.
            """

            def __init__(self, x, y, y_init, foreground):
                self.x = x
                self.y = y
                self.y_init = y_init
                self.foreground = foreground

            def __len__(self):
                return self.x.shape[0]

            def __getitem__(self, idx):
                img = self.x[idx]

                target = {}
                target["boxes"] = torch.from_numpy(y[idx]["boxes"])

                y_init_i = self.y_init[idx]
                foreground_i = self.foreground[idx]

                return img, target, y_init_i, foreground_i

        dataset = TrackingDataset(x, y, y_init, foreground)
        data_loader = torch.utils.data.DataLoader(
            dataset=dataset,
            batch_size=self.batch_size,
            shuffle=shuffle,
            drop_last=False,
        )

        for i_max_iter in range(self.max_iter):

            self._i_max_iter = i_max_iter
            self._batch_id = 0

            for videos_i, target_i, y_init_i, foreground_i in data_loader:
                self._batch_id += 1
                videos_i = videos_i.to(self.estimator.device)
                y_init_i = y_init_i.to(self.estimator.device)
                foreground_i = foreground_i.to(self.estimator.device)
                target_i_list = []
                for i_t in range(videos_i.shape[0]):
                    target_i_list.append({"boxes": target_i["boxes"][i_t].to(self.estimator.device)})

                _ = self._train_step(
                    videos=videos_i,
                    target=target_i_list,
                    y_init=y_init_i,
                    foreground=foreground_i,
                    patch_points=patch_points,
                )

        return self.apply_patch(x=x, foreground=foreground, patch_points=patch_points)

    def apply_patch(
        self,
        x: np.ndarray,
        patch_external: np.ndarray | None = None,
        foreground: np.ndarray | None = None,
        patch_points: np.ndarray | None = None,
    ) -> np.ndarray:
        import torch

        patch_tensor = (
            torch.Tensor(patch_external).to(self.estimator.device) if patch_external is not None else self._patch
        )
        x_tensor = torch.Tensor(x).to(self.estimator.device)
        if foreground is None:
            foreground_tensor = None
        else:
            foreground_tensor = torch.Tensor(foreground).to(self.estimator.device)

        return (
            self._apply_texture(
                videos=x_tensor, patch=patch_tensor, foreground=foreground_tensor, patch_points=patch_points
            )
            .detach()
            .cpu()
            .numpy()
        )

    def _check_params(self) -> None:

        if not isinstance(self.patch_height, int) or self.patch_height <= 0:
            raise ValueError("The patch height `patch_height` has to be of type int and larger than zero.")

        if not isinstance(self.patch_width, int) or self.patch_width <= 0:
            raise ValueError("The patch width `patch_width` has to be of type int and larger than zero.")

        if not isinstance(self.x_min, int) or self.x_min < 0:
            raise ValueError("The vertical position `x_min` has to be of type int and larger than zero.")

        if not isinstance(self.y_min, int) or self.y_min < 0:
            raise ValueError("The horizontal position `y_min` has to be of type int and larger than zero.")

        if not isinstance(self.step_size, float) or self.step_size <= 0:
            raise ValueError("The step size `step_size` has to be of type float and larger than zero.")

        if not isinstance(self.max_iter, int) or self.max_iter <= 0:
            raise ValueError("The number of iterations `max_iter` has to be of type int and larger than zero.")

        if not isinstance(self.batch_size, int) or self.batch_size <= 0:
            raise ValueError("The batch size `batch_size` has to be of type int and larger than zero.")

        if not isinstance(self.verbose, bool):
            raise ValueError("The argument `verbose` has to be of type bool.")


# ---- stand-in for ART's PyTorchGoturn object tracker (same interface, tiny regressor) ----
class TinyTracker(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 5, stride=4)
        self.head = torch.nn.Linear(4 * 7 * 7 + 4, 4)

    def forward(self, frames, box):
        h = torch.relu(self.conv(frames.permute(0, 3, 1, 2))).flatten(1)
        return self.head(torch.cat([h, box.expand(h.shape[0], 4)], 1))


class TrackerEstimator:
    channels_first = False
    clip_values = (0.0, 1.0)
    postprocessing_defences = None
    device = torch.device("cpu")

    def __init__(self):
        self.model = TinyTracker()

    def predict(self, x, y_init, **kwargs):
        return [{"boxes": self.model(x[i].float(), y_init[i].float().view(1, 4))} for i in range(x.shape[0])]


x = np.random.rand(2, 3, 32, 32, 3).astype(np.float32)
y = [{"boxes": np.random.rand(3, 4).astype(np.float32) * 32} for _ in range(2)]
y_init = np.array([[4.0, 4.0, 20.0, 20.0], [6.0, 6.0, 24.0, 24.0]], dtype=np.float32)

attack = AdversarialTexturePyTorch(TrackerEstimator(), patch_height=12, patch_width=12, x_min=8, y_min=8,
                                   step_size=1.0 / 255.0, max_iter=5, batch_size=2, verbose=False)
x_adv = attack.generate(x=x, y=y, y_init=y_init, shuffle=False)
print(x_adv.shape, float(attack._patch.detach().mean()))
