"""Undo a graph cut at given lines: drop `.detach()`, `.item()`, `.numpy()`, `.tolist()`
from the expression, unwrap `torch.tensor(x)` / `torch.from_numpy(x)` around it (a list of
values made tensors again is stacked), and on the way to the loss compute with torch what
was computed with numpy, so the value stays a tensor with its grad_fn. A numpy call with no
torch twin leaves no safe patch."""
from __future__ import annotations

import libcst as cst

from .cst import Tree, dotted, load
from ..evidence.cuts import DETACHING

_DROP = DETACHING | {"cpu"}  # and the copy that usually comes with numpy()
_UNWRAP = {"tensor", "from_numpy", "as_tensor", "array", "asarray", "Tensor", "FloatTensor"}
# numpy functions whose torch twin takes the same positional arguments
_TORCH_TWIN = {"log": "log", "exp": "exp", "sqrt": "sqrt", "abs": "abs", "mean": "mean", "sum": "sum",
               "tanh": "tanh", "sin": "sin", "cos": "cos", "log1p": "log1p", "square": "square",
               "maximum": "maximum", "minimum": "minimum", "clip": "clamp", "where": "where",
               "matmul": "matmul", "stack": "stack", "concatenate": "cat", "exp2": "exp2"}
_SEQUENCES = (cst.List, cst.Tuple, cst.ListComp, cst.GeneratorExp)


def _callee(func) -> tuple[str, str]:
    if isinstance(func, cst.Attribute):
        base = func.value.value if isinstance(func.value, cst.Name) else ""
        return base, func.attr.value
    return "", func.value if isinstance(func, cst.Name) else ""


def _dropped(node) -> bool:
    """A call this transformer strips (`x.item()`, `x.detach()`, ...)."""
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.args \
        and node.func.attr.value in _DROP - {"cpu"}


def _elements(seq) -> list:
    if isinstance(seq, (cst.ListComp, cst.GeneratorExp)):
        return [seq.elt]
    return [e.value for e in seq.elements]


class _Keep(cst.CSTTransformer):
    def __init__(self, tree: Tree, lines: tuple[int, ...], names: tuple[str, ...]):
        super().__init__()
        self.tree, self.lines, self.names, self.unsafe = tree, set(lines), set(names), False

    def leave_Call(self, original, updated):
        if self.tree.line(original) not in self.lines:
            return updated
        base, name = _callee(updated.func)
        if name in _DROP and isinstance(updated.func, cst.Attribute) and not updated.args:
            if name != "cpu" or isinstance(updated.func.value, cst.Call):
                return updated.func.value
        if name in _UNWRAP and base in {"torch", "np", "numpy"} and len(updated.args) >= 1 \
                and not updated.args[0].keyword:
            return self._unwrapped(original.args[0].value, updated.args[0].value)
        if base in {"np", "numpy"} and self._reads_cut(original):
            if name not in _TORCH_TWIN or any(a.keyword for a in updated.args):
                self.unsafe = True
                return updated
            return updated.with_changes(func=cst.Attribute(cst.Name("torch"), cst.Name(_TORCH_TWIN[name])))
        return updated

    def _unwrapped(self, before, after):
        """`torch.tensor([a.item() for ...])` -> `torch.stack([a for ...])`; a sequence with
        anything else in it (a plain number) cannot be stacked."""
        if not isinstance(after, _SEQUENCES):
            return after
        if not all(_dropped(e) for e in _elements(before)):
            self.unsafe = True
            return after
        if isinstance(after, cst.GeneratorExp):
            after = cst.ListComp(after.elt, after.for_in)
        return cst.Call(cst.Attribute(cst.Name("torch"), cst.Name("stack")), [cst.Arg(after)])

    def _reads_cut(self, call) -> bool:
        found = []

        class _Names(cst.CSTVisitor):
            def visit_Name(inner, node):
                found.append(node.value)

            def visit_Attribute(inner, node):
                found.append(dotted(node) or "")

        for arg in call.args:
            arg.value.visit(_Names())
        return bool(self.names & set(found))


def keep_in_graph(source: str, lines: tuple[int, ...], names: tuple[str, ...] = ()) -> str | None:
    """`names`: what holds the cut value on the way to the loss (their numpy calls go torch)."""
    tree = load(source)
    if tree is None:
        return None
    keep = _Keep(tree, tuple(lines), tuple(names))
    patched = tree.rewrite(keep)
    return None if keep.unsafe else patched
