"""What the user's frames and modules show when a loss has no graph or a NumPy conversion is
refused: which names hold a graph, caches filled without one, forwards run under no_grad,
and forward hooks that store what they see. Plain records only."""
from __future__ import annotations

import torch

from .frames import is_user_file
from .inplace_written import optimizer_values
from .user_code import MAX_ITEMS, NOT_OBJECTS, hooks, user_class


def _modules(frames, idents: set[str], held: bool = False):
    """(name, module) for the modules the frames name (`held`: also the modules a plain object
    they name keeps as attributes, a feature extractor's encoder)."""
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            if name not in idents:
                continue
            if isinstance(value, torch.nn.Module):
                yield name, value
            elif held and hasattr(value, "__dict__") and not isinstance(value, NOT_OBJECTS):
                try:
                    attrs = list(vars(value).items())[:MAX_ITEMS]
                except TypeError:
                    continue
                yield from ((f"{name}.{k}", v) for k, v in attrs if isinstance(v, torch.nn.Module))


def _submodules(module: torch.nn.Module) -> list:
    return list(module.named_modules())[:MAX_ITEMS]


def gradless_caches(frames, idents: set[str]) -> tuple[str, ...]:
    """Plain attributes (not parameters or buffers) of the user's own modules that hold only
    tensors without grad while the module trains: a value its forward computed and cached,
    which reads back without a graph when it was computed under no_grad."""
    found: list[str] = []
    for name, value in _modules(frames, idents):
        if not any(p.requires_grad for p in value.parameters()):
            continue
        for sub_path, module in _submodules(value):
            if not user_class(type(module)):
                continue
            for attr, held in list(vars(module).items())[:MAX_ITEMS]:
                items = held if isinstance(held, (tuple, list)) else (held,)
                if items and all(isinstance(t, torch.Tensor) and t.is_floating_point() and not t.requires_grad
                                 for t in items[:MAX_ITEMS]):
                    path = ".".join(p for p in (name, sub_path, attr) if p)
                    if path not in found:
                        found.append(path)
    return tuple(found[:MAX_ITEMS])


def _holds_grad(value, depth: int = 0) -> bool:
    if isinstance(value, torch.Tensor):
        return value.requires_grad
    if depth < 2 and isinstance(value, (list, tuple)):
        return any(_holds_grad(v, depth + 1) for v in list(value)[:MAX_ITEMS])
    if depth < 2 and isinstance(value, dict):
        return any(_holds_grad(v, depth + 1) for v in list(value.values())[:MAX_ITEMS])
    return False


def grad_names(frames) -> tuple[tuple[str, str], ...]:
    """Names in the user's frames (innermost first) whose value is, or holds, a tensor that
    requires grad, with the value's kind: which argument of a NumPy conversion was refused, and
    which names on the way to it carried the graph."""
    found: dict[str, str] = {}
    for frame in frames:
        for name, value in list(frame.f_locals.items())[:16 * MAX_ITEMS]:
            if name not in found and not name.startswith("_") and _holds_grad(value):
                found[name] = "tensor" if isinstance(value, torch.Tensor) else type(value).__name__
    return tuple(found.items())[:4 * MAX_ITEMS]


SHADOWED = ("sum", "max", "min", "abs", "round", "all", "any", "pow")  # builtins `from numpy import *` replaces


def numpy_builtins(frame) -> tuple[str, ...]:
    """The builtins that the failing frame's globals bind to NumPy's functions (a star import,
    `%pylab`): `sum(losses)` there converts every tensor in the list to an array."""
    names = frame.f_globals if frame is not None else {}
    return tuple(n for n in SHADOWED if (getattr(names.get(n), "__module__", None) or "").startswith("numpy"))


def no_grad_forwards(frames, idents: set[str]) -> tuple[tuple[str, int], ...]:
    """(file, first line) of every `forward` decorated with `@torch.no_grad()` (or
    inference_mode) in the user's own modules the frames hold: a call of that module returns
    no graph, whatever the caller meant."""
    found: list[tuple[str, int]] = []
    for _, value in _modules(frames, idents):
        for _, module in _submodules(value):
            forward = getattr(type(module), "forward", None)
            inner = getattr(forward, "__wrapped__", None)
            cells = [c.cell_contents for c in getattr(forward, "__closure__", None) or ()]
            if inner is None or getattr(forward, "__code__", None) is None or forward.__code__.co_name != "decorate_context" \
                    or not any(type(getattr(c, "__self__", c)).__name__ in ("no_grad", "inference_mode") for c in cells):
                continue
            where = (inner.__code__.co_filename, inner.__code__.co_firstlineno)
            if user_class(type(module)) and where not in found:
                found.append(where)
    return tuple(found[:MAX_ITEMS])


def frozen_optimizers(frames) -> tuple[str, ...]:
    """The optimizers the user's frames hold that hold only parameters with requires_grad
    False: a freeze reached what the program means to train, whatever else the loss reads
    without a graph (features computed under no_grad for a frozen encoder are meant)."""
    return tuple(dict.fromkeys(path for path, opt in optimizer_values(frames)
                               if not any(p.requires_grad for g in opt.param_groups for p in g["params"])
                               and any(g["params"] for g in opt.param_groups)))[:MAX_ITEMS]


def hook_code(frames, idents: set[str]) -> tuple[tuple[str, int], ...]:
    """(file, def line) of the user's functions registered as forward hooks on the modules the
    frames hold (directly or as an attribute of a plain object): what stored the activations a
    loss may read back."""
    found: list[tuple[str, int]] = []
    for _, value in list(_modules(frames, idents, held=True))[:MAX_ITEMS]:
        for _, sub in _submodules(value):
            for hook in hooks(sub):
                fn = getattr(hook, "__func__", hook)
                code = getattr(fn, "__code__", None) or getattr(getattr(type(fn), "__call__", None), "__code__", None)
                where = (code.co_filename, code.co_firstlineno) if code is not None else None
                if where and is_user_file(where[0]) and where not in found:
                    found.append(where)
    return tuple(found[:MAX_ITEMS])
