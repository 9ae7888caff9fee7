"""What wrote the tensor an in-place error names, as the runtime can tell: the tensors of the
user's frames with that error's shape and version (an optimizer's parameters, a module's buffer
like MoCo's queue). Read at the failure; only names are kept."""
from __future__ import annotations

import re

import torch

from . import touch
from .graph import leaves_below
from .user_code import MAX_ITEMS, NOT_OBJECTS

_MODIFIED = re.compile(r"modified by an inplace operation: \[torch\.\w+ \[([\d, ]*)\]\].*? is at version (\d+);")


def optimizer_values(frames):
    """(path, optimizer) for the optimizers the frames name, or their objects hold (`self.opt_g`)."""
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            candidates = [(name, value)]
            if not isinstance(value, (torch.optim.Optimizer, *NOT_OBJECTS)) and hasattr(value, "__dict__"):
                try:
                    candidates += [(f"{name}.{k}", v) for k, v in list(vars(value).items())[:MAX_ITEMS]]
                except TypeError:
                    pass
            yield from ((path, opt) for path, opt in candidates if isinstance(opt, torch.optim.Optimizer))


def optimizers_writing(message: str, frames, roots=()) -> tuple[str, ...]:
    """The optimizers in the user's frames (`opt_g`, `self.optimizer_G`) with a parameter of the
    shape and version an in-place error names: whose step() wrote the saved tensor. Of several
    (an actor-critic's Q and V nets end alike), those whose parameters the failing graph reaches."""
    m = _MODIFIED.search(message)
    if m is None:
        return ()
    shape, version = tuple(int(x) for x in m.group(1).split(",") if x.strip()), int(m.group(2))
    found: dict[str, object] = {}
    for path, opt in optimizer_values(frames):
        if path not in found and any(tuple(p.shape) in (shape, shape[::-1]) and p._version == version  # a Linear saves weight.t()
                                     for g in opt.param_groups for p in g["params"]):
            found[path] = opt
    leaves = leaves_below(roots, max(1, touch.room() // 8)) if len(found) > 1 and roots else None
    reached = [path for path, opt in found.items() if leaves and any(id(p) in leaves for g in opt.param_groups for p in g["params"])]
    return tuple(reached or found)


def _squeezed(shape) -> tuple[int, ...]:
    return tuple(d for d in shape if d != 1)


def tensors_writing(message: str, frames) -> tuple[str, ...]:
    """Tensors that are no parameter (a module's buffer `self.queue`, an object's tensor) in the
    user's frames with the shape (size-1 dimensions aside: einsum saves a view) and version the
    error names: `model.queue` when a method writes slices of it after a forward saved it."""
    m = _MODIFIED.search(message)
    if m is None:
        return ()
    shape, version = _squeezed(int(x) for x in m.group(1).split(",") if x.strip()), int(m.group(2))
    found: list[str] = []
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            for path, tensor in _plain_tensors(name, value):
                if path not in found and not tensor.requires_grad and not tensor.is_inference() \
                        and tensor._version == version and _squeezed(tensor.shape) in (shape, shape[::-1]):
                    found.append(path)
    return tuple(found[:4])


def _plain_tensors(name: str, value):
    """(path, tensor): a tensor, a module's buffers (`model.queue`), an object's tensor attributes."""
    if isinstance(value, torch.Tensor):
        yield name, value
    elif isinstance(value, torch.nn.Module):
        yield from ((f"{name}.{b}", t) for b, t in list(value.named_buffers())[:MAX_ITEMS])
    elif not isinstance(value, NOT_OBJECTS) and hasattr(value, "__dict__"):
        try:
            items = list(vars(value).items())[:MAX_ITEMS]
        except TypeError:
            return
        yield from ((f"{name}.{k}", v) for k, v in items if isinstance(v, torch.Tensor))
