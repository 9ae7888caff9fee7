"""The per-op recorder of `Watcher` (`--ops`, and code compiled by somebody else): a
TorchFunctionMode noting, after each torch call that made graph nodes, the sequence-number
range it made (`watcher._note`). It also names the line inside an imported user module, at a
per-op Python cost; the statement marks (`marks.py`) cost nothing per op."""
from __future__ import annotations

import sys

import torch
from torch.overrides import TorchFunctionMode

_next_seq = torch._C._autograd._get_sequence_nr
_is_compiling = torch.compiler.is_compiling
_SKIP: dict = {}  # func -> makes no graph node (one dict lookup per op instead of two tests)

# Property reads/writes (`p.grad`, `.data`, `.shape`: most calls in an optimizer step) make no
# graph node: return before any bookkeeping. (`.T`, `.real` do make nodes: not listed.)
_WRAPPER = type(torch.Tensor.grad.__get__)
_QUIET = frozenset(getattr(torch._C.TensorBase, name) for name in (
    "size", "dim", "numel", "stride", "is_contiguous", "item", "tolist", "data_ptr", "element_size",
    "nelement", "get_device", "is_floating_point", "storage_offset", "__len__", "__bool__") if hasattr(torch._C.TensorBase, name))
_PLAIN = frozenset(("grad", "data", "shape", "requires_grad", "grad_fn", "is_leaf", "device", "dtype",
                    "_version", "names", "layout", "ndim", "is_cuda", "_base", "output_nr"))


class ProvenanceMode(TorchFunctionMode):
    """After each torch call, note (sequence-number range it created, line, iteration)."""

    def __init__(self, watcher):
        super().__init__()
        self.watcher = watcher

    def __torch_function__(self, func, types, args=(), kwargs=None):
        try:
            quiet = _SKIP[func]
        except (KeyError, TypeError):
            quiet = _quiet(func)
        if quiet or _is_compiling():  # compiling: untraceable code gave wrong results
            return func(*args, **kwargs) if kwargs else func(*args)
        before = _next_seq()
        result = func(*args, **kwargs) if kwargs else func(*args)
        after = _next_seq()
        if after != before:
            self.watcher._note(before, after - 1, sys._getframe(1))
        return result


def _quiet(func) -> bool:
    """Whether `func` makes no graph node; remembered per torch function (a fixed set)."""
    try:
        quiet = func in _QUIET or (type(func) is _WRAPPER and getattr(func.__self__, "__name__", None) in _PLAIN)
        _SKIP[func] = quiet
        return quiet
    except TypeError:  # unhashable: asked again each time
        return type(func) is _WRAPPER and getattr(func.__self__, "__name__", None) in _PLAIN


def pop_to(mode) -> None:
    """Pop the torch-function mode stack down to and including `mode` (modes left above it
    by code interrupted inside its own `with`), so torch is as it was before start()."""
    stack = [torch._C._get_function_stack_at(i) for i in range(torch._C._len_torch_function_stack())]
    if any(m is mode for m in stack):
        while torch._C._len_torch_function_stack() and torch._C._pop_torch_function_stack() is not mode:
            pass
