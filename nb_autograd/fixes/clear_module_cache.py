"""A module memoises what its forward computed (`self.cache.update(...)`, `self.cache[k] = v`)
while it is being trained: the cached values keep the graph of the iteration that filled the
cache, and every later loss reads them back. Emptying the cache after each update (the
backward and the optimizer calls right after it) makes the next forward compute them again
from the new weights, as the module built without its cache would; detaching them instead
would stop training what computes them."""
from __future__ import annotations

import libcst as cst

from .cst import after_update, calls_in, dotted, load, with_body


def clear_module_cache(source: str, *, backward_line: int, holder: str) -> str | None:
    """`holder`: the cache as the training code spells it (`text_encoder.cache`)."""
    tree = load(source)
    update = after_update(tree, backward_line)
    if update is None:
        return None
    root = holder.split(".")[0]
    if not any(isinstance(n, cst.Name) and n.value == root for n in tree.positions):
        return None  # the training code does not name the module that holds the cache
    block, index, end = update
    body = list(block.body)
    if any(_clears(s, holder) for s in body[index:end + 1]):
        return None
    clear = cst.parse_statement(f"{holder}.clear()\n")
    return with_body(tree, block, [*body[:end], clear, *body[end:]])


def _clears(stmt, holder: str) -> bool:
    return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "clear" and dotted(c.func.value) == holder
               for c in calls_in(stmt))
