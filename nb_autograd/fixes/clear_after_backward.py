"""A list that collects this episode's graph-attached values (REINFORCE's saved log-probs) and
is read whole by the loss, but never emptied: the next episode's loss reads the old entries
again, whose graph that backward freed. Empty it right after the backward and optimizer step.
Detaching at the append would be wrong here: it cuts the current entries too, so the loss made
from the list would have no gradient left."""
from __future__ import annotations

import libcst as cst

from .cst import LOOP, backward_line_call, calls_in, dotted, load, optimizer_call, with_body

_REMOVE = {"clear", "pop", "popleft", "remove"}


def _same(node: cst.CSTNode, name: str) -> bool:
    """`node` spells the list: the name itself, or `policy.buf` for `self.buf` seen from outside."""
    spelled = dotted(node)
    if spelled is None:
        return False
    if spelled == name:
        return True
    return name.startswith("self.") and "." in spelled and spelled.split(".", 1)[1] == name[5:]


def _trims(tree, name: str) -> bool:
    """Is the list ever trimmed, indexed, deleted from or reassigned outside a constructor?"""
    for node in tree.positions:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and _same(node.func.value, name):
            if node.func.attr.value in _REMOVE:
                return True
        elif isinstance(node, cst.Subscript) and _same(node.value, name) and not _iterated(tree, node) \
                or isinstance(node, cst.Del) and _spellings(node, name):
            return True
        elif isinstance(node, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            function = tree.enclosing(node, cst.FunctionDef)
            if any(_same(t, name) for t in targets) and (tree.enclosing(node, LOOP) is not None or (
                    function is not None and function.name.value != "__init__")):
                return True
    return False


def _iterated(tree, node) -> bool:
    """`for r, p in self.data[::-1]:`: a slice read only to loop over the entries."""
    parent = tree.parents.get(node)
    return isinstance(parent, cst.For) and parent.iter is node


def _spellings(node, name: str) -> list:
    """The outermost spellings of the list inside `node`."""
    found = []

    class _Find(cst.CSTVisitor):
        def on_visit(self, n):
            if isinstance(n, (cst.Name, cst.Attribute)) and _same(n, name):
                found.append(n)
                return False
            return True

    node.visit(_Find())
    return found


def clear_after_backward(source: str, *, line: int, backward_line: int, name: str) -> str | None:
    tree = load(source)
    store = tree and tree.statement(line, cst.SimpleStatementLine)
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    if store is None or backward_line_call(bw, tree) is None or tree.block(bw) is None:
        return None
    if not any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "append" and _same(c.func.value, name)
               for c in calls_in(store)):
        return None
    if _trims(tree, name):
        return None  # trimmed, indexed or reset somewhere: a queue or a history, not an episode buffer
    block, index = tree.block(bw)
    loop = tree.enclosing(bw, cst.For)
    over_list = loop is not None and bool(_spellings(loop.iter, name)) and tree.block(loop) is not None
    if over_list:  # a backward per stored entry (`for r, p in self.data: ... backward()`): emptied after that loop
        block, index = tree.block(loop)
    body = list(block.body)
    read = next((n for s in [*body[:index], *([loop.iter] if over_list else [])] for n in _spellings(s, name)), None)
    if read is None:
        return None  # the loss at this backward does not read the list
    end = index + 1
    while end < len(body) and optimizer_call(body[end]):
        end += 1
    clear = cst.parse_statement(f"del {dotted(read)}[:]\n")
    return with_body(tree, block, [*body[:end], clear, *body[end:]])
