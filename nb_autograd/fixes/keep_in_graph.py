"""Undo a graph cut at given lines: drop `.detach()`, `.item()`, `.numpy()`, `.tolist()`
from the expression, and unwrap `torch.tensor(x)` / `torch.from_numpy(x)` around it, so the
value stays a tensor with its grad_fn."""
from __future__ import annotations

import libcst as cst

from .line_edit import LineTransformer, transform

_DROP = {"detach", "item", "numpy", "tolist", "cpu"}
_UNWRAP = {"tensor", "from_numpy", "as_tensor", "array", "asarray", "Tensor", "FloatTensor"}


def _callee(func) -> tuple[str, str]:
    if isinstance(func, cst.Attribute):
        base = func.value.value if isinstance(func.value, cst.Name) else ""
        return base, func.attr.value
    return "", func.value if isinstance(func, cst.Name) else ""


class _Keep(LineTransformer):
    def __init__(self, lines: tuple[int, ...]):
        super().__init__()
        self.lines = set(lines)

    def leave_Call(self, original, updated):
        if self.line(original) not in self.lines:
            return updated
        base, name = _callee(updated.func)
        if name in _DROP and isinstance(updated.func, cst.Attribute) and not updated.args:
            if name != "cpu" or isinstance(updated.func.value, cst.Call):
                return updated.func.value
        if name in _UNWRAP and base in {"torch", "np", "numpy"} and len(updated.args) >= 1 \
                and not updated.args[0].keyword:
            return updated.args[0].value
        return updated


def keep_in_graph(source: str, lines: tuple[int, ...]) -> str | None:
    return transform(source, _Keep(tuple(lines)))
