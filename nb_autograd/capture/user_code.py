"""Which objects are the user's: classes defined in a cell or a user file, and the hooks
registered on modules. Read at failure; keeps no class alive."""
from __future__ import annotations

import types
import weakref

import torch

from .frames import is_user_file

MAX_ITEMS = 64
NOT_OBJECTS = (types.ModuleType, type, types.FunctionType, types.MethodType, types.BuiltinFunctionType)


def hooks(module: torch.nn.Module) -> list:
    """The functions registered as the module's forward (pre-)hooks."""
    if not module._forward_hooks and not module._forward_pre_hooks:  # most modules: read on every sampled backward
        return []
    found = []
    for table in (module._forward_hooks, module._forward_pre_hooks):
        found += [getattr(h, "func", h) for h in list(table.values())[:MAX_ITEMS]]  # functools.partial too
    return found


_USER_CLASSES: "weakref.WeakKeyDictionary[type, bool]" = weakref.WeakKeyDictionary()  # keeps no class alive


def user_class(cls) -> bool:
    """Whether `cls` is defined in a cell or a user file (not torch, a library, or this package)."""
    known = _USER_CLASSES.get(cls)  # one lookup: read for every module of every holder scan
    if known is not None:
        return known
    if getattr(cls, "__module__", None) == "__main__" and "__main__" not in getattr(cls, "__qualname__", "<"):
        return True  # defined in a notebook cell (inspect finds no file for it) or the script run
    import inspect

    try:
        path = inspect.getfile(cls)
    except (TypeError, OSError):
        path = None
    found = bool(path) and is_user_file(path)
    try:
        _USER_CLASSES[cls] = found
    except TypeError:
        pass
    return found
