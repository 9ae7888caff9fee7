"""The optimizer's side of a watched cell: when a step runs and when gradients are zeroed."""
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.optim.optimizer as _optim

if TYPE_CHECKING:
    from .silent import Timeline

# torch.compiler.is_compiling() in one call instead of two (these run on every step): dynamo
# traces is_dynamo_compiling() as True; run, is_compiling() is the flag.
_dynamo_compiling = torch.compiler.is_dynamo_compiling
_compiler = torch.compiler


def _in_place(args, kwargs) -> bool:
    """`zero_grad(set_to_none=False)` zeroes the gradient tensors in place; the default sets them
    to None, so the next backward makes new ones (which the step's check sees by identity)."""
    return not kwargs.get("set_to_none", args[0] if args else True)


class OptimizerHooks:
    """Global optimizer step hooks, and zero_grad (Optimizer, Module) and Tensor.zero_ patched
    for the watch only (torch has no global zero_grad hook; `p.grad.zero_()` and
    `p.grad.data.zero_()` are how older code zeroes); uninstall restores the exact originals.

    Under the per-op mode both run with it paused (`suspend() -> bool`, `resume()`): they make
    no graph nodes, yet their many `p.grad` reads were most of the mode's cost in a training
    step. Without a mode (statement marks: suspend is None) there is nothing to pause, and no
    post-step hook is registered."""

    def __init__(self, timeline: Timeline, suspend=None, resume=None):
        self.timeline, self.suspend, self.resume = timeline, suspend, resume
        self._handles: list = []
        self._patched: list[tuple[type, str, object, object]] = []  # owner, name, own original, patch
        self._paused = False

    def _pre_step(self, optimizer, args, kwargs) -> None:
        if _dynamo_compiling() or _compiler._is_compiling_flag:  # a compiled step: leave the mode stack alone
            return
        if self.suspend is not None and not self._paused and len(args) < 2 and not kwargs:  # a closure may build a graph
            self._paused = self.suspend()
        self.timeline.before_step(optimizer, args, kwargs)

    def _post_step(self, optimizer, args, kwargs) -> None:
        if self._paused and not (_dynamo_compiling() or _compiler._is_compiling_flag):
            self._paused = False
            self.resume()

    def install(self) -> None:
        timeline, hooks = self.timeline, self
        self._handles = [_optim.register_optimizer_step_pre_hook(self._pre_step)]
        if self.suspend is not None:
            self._handles.append(_optim.register_optimizer_step_post_hook(self._post_step))
        for owner in (torch.optim.Optimizer, torch.nn.Module):
            original = owner.__dict__["zero_grad"]

            if self.suspend is None:  # statement marks: count the call, nothing else
                def zero_grad(self, *args, __original=original, **kwargs):
                    timeline.zeroed(_in_place(args, kwargs))
                    return __original(self, *args, **kwargs)
            else:
                def zero_grad(self, *args, __original=original, **kwargs):
                    timeline.zeroed(_in_place(args, kwargs))
                    paused = hooks.suspend()
                    try:
                        return __original(self, *args, **kwargs)
                    finally:
                        if paused:
                            hooks.resume()

            zero_grad.__wrapped__ = original
            self._patched.append((owner, "zero_grad", original, zero_grad))
            owner.zero_grad = zero_grad
        original_zero = torch.Tensor.zero_

        def zero_(self, *args, **kwargs):
            __tracebackhide__ = True
            if not (_dynamo_compiling() or _compiler._is_compiling_flag):
                timeline.zeroed()
            return original_zero(self, *args, **kwargs)

        zero_.__wrapped__ = original_zero
        self._patched.append((torch.Tensor, "zero_", torch.Tensor.__dict__.get("zero_"), zero_))
        torch.Tensor.zero_ = zero_

    def uninstall(self) -> None:
        """Also drops a pause left by a step that raised (the mode is then off the stack)."""
        handles, self._handles, self._paused = self._handles, [], False
        for handle in handles:
            handle.remove()
        while self._patched:
            owner, name, original, patch = self._patched.pop()
            if owner.__dict__.get(name) is patch:
                if original is None:
                    delattr(owner, name)  # it was inherited (Tensor.zero_ from TensorBase)
                else:
                    setattr(owner, name, original)
