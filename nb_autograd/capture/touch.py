"""How many autograd nodes this package may read from Python without endangering torch's teardown.

A node that Python has touched (`t.grad_fn`, `node.next_functions`) keeps a Python object for
the rest of its life, and torch frees such nodes recursively, one chain of C frames per node,
outside the iterative deleter it uses for deep graphs (pytorch/pytorch#5534). Measured with
torch 2.13 on CPU (`python benchmarks/big_graphs.py --depth`): about 200 bytes of C stack per
touched node, so a chain of ~40,000 touched nodes overflows an 8 MiB stack and kills the process,
whenever and wherever the graph is later freed. The touches add up across readings of one graph.

So every node this package obtains is counted while it lives: its `node.metadata` holds one
reference to a token, dropped when torch frees the node, and the count is the token's reference
count (no Python call per node, when touching or when freeing: graphs are read on every watched
backward). Walks stop expanding once the count reaches LIMIT, a quarter of the depth the stack allows."""
from __future__ import annotations

import resource
import sys
import threading

BYTES_PER_NODE = 200      # C stack one touched node takes when torch frees it (measured)
SAFETY = 4
_KEY = "nb_autograd.touched"


def _stack_bytes() -> int:
    """The smallest stack a graph may be freed on: the main thread's, or a thread's if set."""
    if sys.platform == "win32":
        return 1 << 20
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    size = soft if 0 < soft != resource.RLIM_INFINITY else 8 << 20
    return min(size, threading.stack_size() or size)


LIMIT = max(1_000, _stack_bytes() // (BYTES_PER_NODE * SAFETY))
RESERVE = LIMIT // 4


_getrefcount = sys.getrefcount
_TOKEN = object()  # one reference per touched node alive (in its metadata), plus _BASE
_BASE = sys.getrefcount(_TOKEN)
_forever = 0       # nodes without metadata: counted for good (conservative)


def live() -> int:
    """Nodes this package touched that torch has not freed yet."""
    return sys.getrefcount(_TOKEN) - _BASE + _forever


def room() -> int:
    """How many more nodes may be touched now."""
    return LIMIT - live()


def mark(node) -> None:
    """Count `node`, just obtained from Python, until torch frees it (once per node)."""
    global _forever
    try:
        node.metadata.setdefault(_KEY, _TOKEN)
    except Exception:  # a node kind without metadata
        _forever += 1


def node_of(tensor):
    """`tensor.grad_fn`, counted; None when there is none or no room is left. A single node
    adds one level at most, so roots may use a reserve beyond LIMIT that walks may not."""
    if _getrefcount(_TOKEN) - _BASE + _forever >= LIMIT + RESERVE:  # room() <= -RESERVE, inline: once per backward
        return None
    node = tensor.grad_fn
    if node is not None:
        mark(node)
    return node


def children(node) -> list:
    """The node's children (counted), or [] when no room is left to touch them."""
    if _getrefcount(_TOKEN) - _BASE + _forever >= LIMIT:  # room() <= 0, inline: once per node of a walk
        return []
    out = []
    for child, _ in node.next_functions:
        if child is not None:
            out.append(child)
            try:  # mark(child), inline: graphs are read on every watched backward
                child.metadata.setdefault(_KEY, _TOKEN)
            except Exception:
                mark(child)
    return out
