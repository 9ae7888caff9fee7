"""Small GraphSnapshots built by hand, and real ones from running torch code."""
from __future__ import annotations

from nb_autograd.capture.records import GraphNode, GraphSnapshot, SavedBuffer

FREED = (SavedBuffer("self", (), "?", 0, "freed"),)
LIVE = (SavedBuffer("self", (2, 3), "float32", 24, "live"),)


def chain_graph(n: int, failed: int | None = None, provenance: bool = False, per_iter: int = 5) -> GraphSnapshot:
    """Node n-1 -> n-2 -> ... -> 0 -> a leaf (-1). With provenance, `per_iter` nodes per
    iteration, two lines each."""
    nodes = []
    for i in range(n):
        line = (10 + (i % 2)) if provenance else None
        nodes.append(GraphNode(i, f"Op{i % 3}Backward0", FREED if i % 2 else LIVE, line=line,
                               iteration=(i // per_iter) if provenance else None))
    nodes.append(GraphNode(-1, "AccumulateGrad", is_leaf=True, leaf_shape=(3,)))
    edges = tuple((i, i - 1) for i in range(n - 1, 0, -1)) + ((0, -1),)
    stale = tuple(range(0, failed + 1)) if failed is not None else ()
    return GraphSnapshot(tuple(reversed(nodes[:-1])) + (nodes[-1],), edges, (n - 1,), stale=stale,
                         failed_at=(failed,) if failed is not None else ())


def lattice_graph(steps: int, width: int = 4) -> GraphSnapshot:
    """An unrolled-recurrence shape: each step has `width` nodes fed by the previous step."""
    nodes, edges, nid = [], [], 0
    prev = []
    for s in range(steps):
        cur = list(range(nid, nid + width))
        nid += width
        for j, c in enumerate(cur):
            nodes.append(GraphNode(c, "MulBackward0" if j % 2 else "AddBackward0", FREED))
            for p in prev:
                edges.append((c, p))
            edges.append((c, -1 - (j % 2)))
        prev = cur
    top = nid
    nodes.append(GraphNode(top, "SumBackward0"))
    edges += [(top, p) for p in prev]
    nodes += [GraphNode(-1, "AccumulateGrad", is_leaf=True, leaf_shape=(4, 4)),
              GraphNode(-2, "AccumulateGrad", is_leaf=True, leaf_shape=(4,))]
    return GraphSnapshot(tuple(nodes), tuple(edges), (top,), stale=(0, 1), failed_at=(1,))
