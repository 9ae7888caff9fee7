"""Gradients a hand-written update reads and never clears (`w -= lr * w.grad`, or an attack's
`patch[:] = patch + patch.grad.sign() * step`, with no `w.grad.zero_()`): each backward adds to
the gradient of every step before. Watched on a few leaves of a graph the watcher read, at the
start of each backward: the leaf's .grad is the very tensor the last backward added into, moved
on by that one addition only, not zero, while the leaf itself changed in between (an update, not
gradient accumulation on purpose). Only the leaf's name and ints outlive the cell."""
from __future__ import annotations

import weakref

import torch

from .frames import release_locals
from .tensor_values import tensor_values

STREAK = 3   # backward calls in a row that start on the last one's gradient, after an update
LEAVES = 4   # leaves watched per cell
PROBE = 8    # elements of a leaf compared to tell it was updated


class _Leaf:
    __slots__ = ("ref", "grad", "version", "probe", "streak")

    def __init__(self, tensor):
        self.ref, self.grad, self.version, self.probe, self.streak = weakref.ref(tensor), None, -1, None, 0


def _probe(tensor):
    return tensor.detach().reshape(-1)[:PROBE].clone()


def _nonzero(grad) -> bool:
    return grad.is_sparse or bool(grad.detach().reshape(-1)[:4096].any())


class LeafGrads:
    """What the watcher feeds it: the nodes of a graph it read, and each backward's start."""

    def __init__(self):
        self._leaves: list[_Leaf] = []
        self.found: tuple[str, bool, int | None] | None = None  # (the leaf's path, a module's parameter?, backward line)

    def pick(self, nodes) -> None:
        """The graph's first leaves (tensors the user made with requires_grad before parameters)."""
        if self._leaves:
            return
        found = [v for n in nodes if type(n).__name__ == "AccumulateGrad" and (v := getattr(n, "variable", None)) is not None]
        found.sort(key=lambda v: isinstance(v, torch.nn.Parameter))  # (stable: the nearest first)
        self._leaves = [_Leaf(v) for v in found[:LEAVES]]

    @property
    def watching(self) -> bool:
        return bool(self._leaves)

    def before_backward(self, frame, idents, top_code, line: int | None) -> None:
        for leaf in self._leaves:
            tensor = leaf.ref()
            if tensor is None:
                continue
            grad = tensor.grad
            kept = grad is not None and leaf.grad is not None and leaf.grad() is grad and grad._version == leaf.version + 1
            probe = _probe(tensor)
            updated = leaf.probe is not None and not torch.equal(probe, leaf.probe)
            leaf.streak = leaf.streak + 1 if kept and updated and _nonzero(grad) else 0
            leaf.grad = weakref.ref(grad) if grad is not None else None
            leaf.version, leaf.probe = grad._version if grad is not None else -1, probe
            if leaf.streak >= STREAK and self.found is None:
                self.found = (*_path_of(tensor, frame, idents, top_code), line)

    def close(self) -> None:
        self._leaves = []


def _path_of(tensor, frame, idents, top_code) -> tuple[str, bool]:
    """The name the innermost user frame gives the leaf (`self._patch`, `w`), or the module whose
    parameter it is (`model`); ("", False) when none does."""
    while frame is not None:
        items = [(n, v) for n, v in list(frame.f_locals.items()) if n in idents]
        release_locals(frame)
        for name, value in items:  # a module's parameter is named by its module (not `p` of a loop over them)
            if isinstance(value, torch.nn.Module) and any(p is tensor for p in value.parameters()):
                return name, True
        for name, value in items:
            path = next((p for p, t in tensor_values(name, value, idents) if t is tensor), None)
            if path is not None:
                return path, False
        if frame.f_code is top_code:
            break
        frame = frame.f_back
    return "", False
