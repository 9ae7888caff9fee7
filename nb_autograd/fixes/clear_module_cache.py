"""A module memoises what its forward computed (`self.cache.update(...)`, `self.cache[k] = v`)
while it is being trained: the cached values keep the graph of the iteration that filled the
cache, and every later loss reads them back. Emptying the cache after each update (the
backward and the optimizer calls right after it) makes the next forward compute them again
from the new weights, as the module built without its cache would; detaching them instead
would stop training what computes them."""
from __future__ import annotations

import libcst as cst

from .clear_after_backward import _optimizer_call
from .cst import backward_call, calls_in, dotted, load, only_small, with_body


def clear_module_cache(source: str, *, backward_line: int, holder: str) -> str | None:
    """`holder`: the cache as the training code spells it (`text_encoder.cache`)."""
    tree = load(source)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    small = only_small(bw, cst.Expr)
    if small is None or backward_call(small.value, tree) is None or tree.block(bw) is None:
        return None
    root = holder.split(".")[0]
    if not any(isinstance(n, cst.Name) and n.value == root for n in tree.positions):
        return None  # the training code does not name the module that holds the cache
    block, index = tree.block(bw)
    body = list(block.body)
    end = index + 1
    while end < len(body) and _optimizer_call(body[end]):
        end += 1
    if any(_clears(s, holder) for s in body[index:end + 1]):
        return None
    clear = cst.parse_statement(f"{holder}.clear()\n")
    return with_body(tree, block, [*body[:end], clear, *body[end:]])


def _clears(stmt, holder: str) -> bool:
    return any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "clear" and dotted(c.func.value) == holder
               for c in calls_in(stmt))
