"""Snapshot of an autograd graph: node types, edges, saved buffers live or freed.

Every node is obtained through `touch`, so a reading never touches more nodes than torch can
later free safely; what is left unread is counted in the snapshot, not walked."""
from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from . import touch
from .records import GraphNode, GraphSnapshot, SavedBuffer

NO_SEQ = 2**64 - 1
MAX_NODES = 20_000
WALK_LIMIT = 2_000  # nodes the watcher reads per graph: enough to see earlier iterations' nodes pile up
_saved_names: dict[type, tuple[str, ...]] = {}
_plans: dict[type, tuple[tuple[str, ...], bool]] = {}  # node type -> (its _raw_saved_ names, custom)
_custom_kinds: dict[type, bool] = {}


def node_id(node) -> int:
    """A node's sequence number; leaves (AccumulateGrad) share one, so they get -id()."""
    seq = node._sequence_nr()
    return -id(node) if seq == NO_SEQ else seq


def walk_with_children(roots: Iterable, limit: int = MAX_NODES) -> Iterator[tuple[object, list | None]]:
    """(node, children) for each node below `roots` once, nearest first; children is None
    for a node left unread (the walk reached `limit` or the touch budget)."""
    seen: set[int] = set()
    queue = deque(r for r in roots if r is not None)
    for r in queue:
        touch.mark(r)
    popleft, see, children = queue.popleft, seen.add, touch.children  # (looked up once: this runs per node)
    while queue:
        node = popleft()
        key = id(node)
        if key in seen:
            continue
        see(key)
        kids = children(node) if len(seen) <= limit else None
        yield node, kids
        if kids:
            queue.extend(kids)  # the ones seen already are skipped when they come out


def nodes_below(roots: Iterable, limit: int = MAX_NODES) -> list:
    """The nodes `walk` yields, as a list: one loop, with `touch.children` inline (the watcher
    reads a graph on some backward calls of a loop, and this runs per node and per edge)."""
    nodes: list = []
    seen: set[int] = set()
    queue = deque(r for r in roots if r is not None)
    for r in queue:
        touch.mark(r)
    popleft, see, append, push = queue.popleft, seen.add, nodes.append, queue.append
    refs, token, key = sys.getrefcount, touch._TOKEN, touch._KEY
    full = touch._BASE + 1 + touch.LIMIT  # (+1: `token` here is one more reference to it)
    while queue:
        node = popleft()
        if id(node) in seen:
            continue
        see(id(node))
        append(node)
        if len(seen) <= limit and refs(token) + touch._forever < full:  # touch.children, inline
            for child, _ in node.next_functions:
                if child is not None:
                    push(child)
                    try:
                        child.metadata.setdefault(key, token)
                    except Exception:
                        touch.mark(child)
    return nodes


def walk(roots: Iterable, limit: int = MAX_NODES) -> Iterator:
    """Each node reached below `roots`, nearest first (bounded; see walk_with_children)."""
    for node, _ in walk_with_children(roots, limit):
        yield node


def ids_below(roots: Iterable, limit: int = MAX_NODES) -> set[int]:
    return {node_id(n) for n in walk(roots, limit)}


def leaves_below(roots: Iterable, budget: int, stop: set[int] = frozenset(), met: list | None = None) -> set[int] | None:
    """ids of the tensors the graph below `roots` accumulates gradients into (parameters, inputs
    that require grad), not entering the nodes whose ids are in `stop` (those met are appended
    to `met`); None when the walk ran out of room: a part left unread could hold any of them."""
    seen, todo, out = set(), [r for r in roots if r is not None], set()
    for r in todo:
        touch.mark(r)
    while todo:
        if len(seen) >= budget or touch.room() <= 0:
            return None
        node = todo.pop()
        nid = node_id(node)
        if nid in seen:
            continue
        seen.add(nid)
        if nid in stop:
            if met is not None:
                met.append(node)
            continue
        if nid < 0 and (variable := getattr(node, "variable", None)) is not None:
            out.add(id(variable))
        todo.extend(touch.children(node))
    return out


def _saved_attr_names(node) -> tuple[str, ...]:
    kind = type(node)
    if kind not in _saved_names:
        _saved_names[kind] = tuple(a[len("_raw_saved_"):] for a in dir(node) if a.startswith("_raw_saved_"))
    return _saved_names[kind]


def _buffer(name: str, tensor, state: str) -> SavedBuffer:
    try:
        return SavedBuffer(name, tuple(tensor.shape), str(tensor.dtype).replace("torch.", ""),
                           tensor.numel() * tensor.element_size(), state)
    except Exception:
        return SavedBuffer(name, (), "?", 0, state)


def _custom(kind: type) -> bool:
    """A custom autograd.Function's node (its tensors are in `saved_tensors`); per node type."""
    if kind not in _custom_kinds:
        _custom_kinds[kind] = "saved_tensors" in dir(kind)  # hasattr would raise
    return _custom_kinds[kind]


def live_bytes(nodes: Iterable) -> int:
    """The bytes of the tensors `nodes` saved that are still live: what `saved_buffers` would
    count as live, without building a record per buffer (it runs on measured backwards)."""
    total = 0
    plans = _plans
    for node in nodes:
        kind = type(node)
        plan = plans.get(kind)
        if plan is None:
            plan = plans[kind] = (tuple("_raw_saved_" + name for name in _saved_attr_names(node)), _custom(kind))
        raw_names, custom = plan
        found = False
        for name in raw_names:
            try:
                raw = getattr(node, name)
            except Exception:
                continue
            for item in raw if isinstance(raw, (list, tuple)) else (raw,):
                found = True
                try:
                    data = item.data
                    if data is not None:
                        total += data.numel() * data.element_size()
                except Exception:  # freed, or not a plain tensor: nothing live counted
                    pass
        if custom and not found:
            try:
                total += sum(_nbytes(t) for t in node.saved_tensors if t is not None)
            except Exception:
                pass
    return total


def _nbytes(tensor) -> int:
    try:
        return tensor.numel() * tensor.element_size()
    except Exception:
        return 0


def saved_buffers(node) -> tuple[SavedBuffer, ...]:
    """Live/freed for each saved tensor: `_raw_saved_x.data` is None once freed."""
    out = []
    for name in _saved_attr_names(node):
        try:
            raw = getattr(node, "_raw_saved_" + name)
        except Exception:
            continue
        for i, item in enumerate(raw if isinstance(raw, (list, tuple)) else [raw]):
            label = f"{name}[{i}]" if isinstance(raw, (list, tuple)) else name
            try:
                data = item.data
            except Exception:
                out.append(SavedBuffer(label, (), "?", 0, "freed"))
                continue
            out.append(SavedBuffer(label, (), "?", 0, "freed") if data is None else _buffer(label, data, "live"))
    if not out and _custom(type(node)):
        try:
            out = [_buffer(f"saved_tensors[{i}]", t, "live") for i, t in enumerate(node.saved_tensors) if t is not None]
        except RuntimeError:
            out = [SavedBuffer("saved_tensors", (), "?", 0, "freed")]
        except Exception:
            out = [SavedBuffer("saved_tensors", (), "?", 0, "unknown")]
    return tuple(out)


def modified_in_place(node) -> bool:
    """A tensor the node saved was changed in place after it was saved: unpacking it raises
    the same version error the backward did (the node an in-place error is about)."""
    for name in _saved_attr_names(node):
        try:
            getattr(node, "_saved_" + name)
        except RuntimeError as exc:
            if "modified by an inplace operation" in str(exc):
                return True
        except Exception:
            continue
    return False


def snapshot(roots: Iterable, stale: set[int] = frozenset(), freed_by: dict[int, int] | None = None,
             origin: Callable[[int], tuple[int | None, int | None]] | None = None,
             limit: int = MAX_NODES, made_at: Callable[[int], tuple[str, int] | None] | None = None,
             versions: bool = False) -> GraphSnapshot:
    """Read the graph below `roots`; `origin(id)` gives (line, iteration) when recorded, and
    `made_at(id)` the innermost user (file, line) when that is another frame (a helper, a module).
    `versions`: also find the nodes whose saved tensors were changed in place (in-place errors)."""
    nodes, edges, roots = [], [], [r for r in roots if r is not None]
    modified = []
    freed_by = freed_by or {}
    unread = 0
    for node, kids in walk_with_children(roots, limit):
        if kids is None:  # reached, not read: counted, not shown
            unread += 1
            continue
        nid = node_id(node)
        variable = getattr(node, "variable", None)
        line, iteration = origin(nid) if origin else (None, None)
        nodes.append(GraphNode(
            id=nid, op=type(node).__name__, saved=saved_buffers(node),
            is_leaf=variable is not None,
            leaf_shape=tuple(variable.shape) if variable is not None else (),
            line=line, iteration=iteration, freed_by=freed_by.get(nid), made_at=made_at(nid) if made_at else None))
        if versions and nodes[-1].state == "live" and modified_in_place(node):
            modified.append(nid)
        edges.extend((nid, node_id(child)) for child in kids)
    by_id = {n.id: n for n in nodes}
    edges = [e for e in edges if e[1] in by_id]
    failed = tuple(i for i in stale if i in by_id and by_id[i].state == "freed")
    return GraphSnapshot(tuple(nodes), tuple(edges), tuple(node_id(r) for r in roots),
                         truncated=unread > 0, stale=tuple(sorted(i for i in stale if i in by_id)),
                         failed_at=tuple(sorted(failed)), unread=unread, modified=tuple(modified))
