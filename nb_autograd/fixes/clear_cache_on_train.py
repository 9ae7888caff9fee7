"""A module caches what its forward computed (`self.cache = (x_e, x_r)`, refilled only when
empty) and an evaluation under no_grad filled that cache without a graph; training then
reads it back and the loss has nothing to backpropagate. The module empties the cache
when it goes back to training mode (`model.train()`), so the next forward recomputes it
with a graph; the cache keeps serving evaluation and every step between two updates."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, load, only_small

_EMPTY = ("None", "{}", "[]", "dict()")


def _initial_value(cls: cst.ClassDef, attr: str) -> str | None:
    """What `__init__` sets the cache to, when that is an empty value the forward refills."""
    for inner in cls.body.body:
        if not (isinstance(inner, cst.FunctionDef) and inner.name.value == "__init__"):
            continue
        for stmt in inner.body.body:
            small = only_small(stmt, cst.Assign)
            if small and len(small.targets) == 1 and code_of(small.targets[0].target).strip() == f"self.{attr}":
                value = code_of(small.value).strip()
                return value if value in _EMPTY else None
    return None


def clear_cache_on_train(source: str, *, line: int, attr: str) -> str | None:
    tree = load(source)
    store = tree and tree.statement(line)
    cls = store and tree.enclosing(store, cst.ClassDef)
    if cls is None or any(isinstance(s, cst.FunctionDef) and s.name.value == "train" for s in cls.body.body):
        return None
    empty = _initial_value(cls, attr)
    if empty is None:
        return None
    method = cst.parse_statement(
        "def train(self, mode=True):\n"
        f"    if mode and not self.training:  # filled in eval mode under no_grad: recompute it with a graph\n"
        f"        self.{attr} = {empty}\n"
        "    return super().train(mode)\n")
    body = list(cls.body.body)
    index = next((i + 1 for i, s in enumerate(body) if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), len(body))
    method = method.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
    return tree.replace(cls.body, cls.body.with_changes(body=[*body[:index], method, *body[index:]]))
