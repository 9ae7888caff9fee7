# source: variant of https://github.com/open-mmlab/mmcv/issues/1379
# style: vision
# cause: double_backward
# line: 111
# expert: The base schedule config still sets `optimizer_config = dict(grad_clip=None)`, which registers an OptimizerHook, and a GradientCumulativeOptimizerHook is registered as well; both hooks call backward on the same `runner.outputs['loss']` in after_train_iter, so the second one backpropagates through a freed graph. The maintainer's fix is to have only one optimizer hook: `optimizer_config = dict(type="GradientCumulativeOptimizerHook", cumulative_iters=4)`.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad

torch.manual_seed(0)


class Hook:
    priority = 50

    def after_train_iter(self, runner):
        pass

    def every_n_iters(self, runner, n):
        return (runner.iter + 1) % n == 0 if n > 0 else False

    def is_last_iter(self, runner):
        return runner.iter + 1 == runner.max_iters


class OptimizerHook(Hook):
    def __init__(self, grad_clip=None):
        self.grad_clip = grad_clip

    def clip_grads(self, params):
        params = list(filter(lambda p: p.requires_grad and p.grad is not None, params))
        if len(params) > 0:
            return clip_grad.clip_grad_norm_(params, **self.grad_clip)

    def after_train_iter(self, runner):
        runner.optimizer.zero_grad()
        runner.outputs['loss'].backward()
        if self.grad_clip is not None:
            self.clip_grads(runner.model.parameters())
        runner.optimizer.step()


class GradientCumulativeOptimizerHook(OptimizerHook):
    def __init__(self, cumulative_iters=1, **kwargs):
        super().__init__(**kwargs)
        self.cumulative_iters = cumulative_iters

    def after_train_iter(self, runner):
        loss = runner.outputs['loss']
        loss = loss / self.cumulative_iters
        loss.backward()
        if self.every_n_iters(runner, self.cumulative_iters) or self.is_last_iter(runner):
            if self.grad_clip is not None:
                self.clip_grads(runner.model.parameters())
            runner.optimizer.step()
            runner.optimizer.zero_grad()


HOOKS = {'OptimizerHook': OptimizerHook, 'GradientCumulativeOptimizerHook': GradientCumulativeOptimizerHook}


def build_hook(cfg):
    cfg = dict(cfg)
    return HOOKS[cfg.pop('type', 'OptimizerHook')](**cfg)


class IterBasedRunner:
    def __init__(self, model, optimizer, max_iters):
        self.model = model
        self.optimizer = optimizer
        self.max_iters = max_iters
        self.iter = 0
        self._hooks = []
        self.outputs = {}

    def register_hook(self, hook):
        self._hooks.append(hook)

    def register_training_hooks(self, optimizer_config, custom_hooks_config=()):
        if optimizer_config is not None:
            self.register_hook(build_hook(optimizer_config))
        for cfg in custom_hooks_config:
            self.register_hook(build_hook(cfg))

    def call_hook(self, fn_name):
        for hook in self._hooks:
            getattr(hook, fn_name)(self)

    def run(self, data_iter):
        self.model.train()
        while self.iter < self.max_iters:
            img, gt = next(data_iter)
            self.outputs = self.model.train_step(img, gt)
            self.call_hook('after_train_iter')
            self.iter += 1


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cls_head = nn.Linear(8, 5)

    def train_step(self, img, gt_labels):
        logits = self.cls_head(self.backbone(img))
        loss = nn.functional.cross_entropy(logits, gt_labels)
        return dict(loss=loss, num_samples=img.shape[0])


# configs/_base_/schedules/schedule_1x.py
optimizer_config = dict(type="GradientCumulativeOptimizerHook", cumulative_iters=4)
# user config
custom_hooks = []

model = TinyDetector()
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
runner = IterBasedRunner(model, optimizer, max_iters=8)
runner.register_training_hooks(optimizer_config, custom_hooks)


def data_loader():
    while True:
        yield torch.randn(2, 3, 16, 16), torch.randint(0, 5, (2,))


runner.run(data_loader())
print("finished", runner.iter, "iters")
