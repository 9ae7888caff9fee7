"""Names that hold graphs of many iterations nobody backpropagated (family C): read at the
cell's end in its namespace, and on some backward calls in the cell's function frames."""
from __future__ import annotations

import linecache
import re
from dataclasses import dataclass
from functools import lru_cache

from . import touch
from .tensor_values import container_of, tensor_values
from .graph import NO_SEQ, WALK_LIMIT, live_bytes, walk

SPAN = 3  # a holder must keep nodes of this many iterations of one line


@dataclass(frozen=True)
class KeptGraph:
    """A name that, at the cell's end, holds graphs of many iterations nobody backpropagated."""

    path: str
    nodes: int
    live_bytes: int
    iterations: int
    lines: tuple[int, ...]         # cell lines whose nodes it keeps, one per iteration
    container: str = ""            # how it holds them, as `container_of` says ("list>dict")


def source_names(filename: str) -> frozenset[str]:
    """The identifiers in `filename`'s source, read once per text (sampled, then at the cell's end)."""
    return _names("".join(linecache.getlines(filename)))


@lru_cache(maxsize=16)
def _names(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[A-Za-z_]\w*", text))


def scan_holders(namespace: dict, idents: frozenset[str], origin, ranges, current: tuple | None = None) -> list[KeptGraph]:
    """Names of the cell holding graphs that span SPAN or more iterations of one line, unless
    one backward went through them (a loss summed over the loop, then backpropagated).
    `current`: the (lowest, highest) node id of the backward about to run; a name holding only
    nodes of that graph (the step's own `loss`, `out`) is not walked (sampled mid-loop)."""
    groups: dict[str, list] = {}
    kinds: dict[str, str] = {}
    for name, value in list(namespace.items()):
        if name in idents and not name.startswith("_"):
            for path, tensor in tensor_values(name, value, idents):
                node = touch.node_of(tensor)
                if node is not None:
                    base = path.split("[")[0]
                    if base not in groups:  # how the first tensor is held stands for the name's
                        groups[base], kinds[base] = [], container_of(value, path)
                    groups[base].append(node)
    out = []
    for path, roots in groups.items():
        ids = {r._sequence_nr() for r in roots}
        if current is not None and all(current[0] <= i <= current[1] for i in ids):
            continue
        per_line: dict[int, set[int]] = {}
        nodes = size = latest = 0
        oldest = NO_SEQ
        lo, hi = ranges[-1] if ranges else (NO_SEQ, NO_SEQ)
        for node in walk(roots, WALK_LIMIT):
            nodes += 1
            seq = node._sequence_nr()
            oldest = min(oldest, seq) if seq != NO_SEQ else oldest
            latest += lo <= seq <= hi
            line, iteration = origin(seq)
            if line is not None:
                per_line.setdefault(line, set()).add(iteration)
            size += live_bytes((node,))
        # backpropagated as a whole (a loss summed over the loop): one backward's graph held it
        # all, from its roots down to its oldest node (a running statistic updated inside each
        # forward sits in the last step's graph, but reaches far older steps)
        if any(oldest >= lo and 2 * sum(lo <= i <= hi for i in ids) >= len(ids) for lo, hi in ranges):  # most of
            # it, not one step's loss and outputs kept beside the later steps' (logs emptied at the epoch's end)
            continue
        if 2 * latest > nodes:  # mostly the graph the last backward went through, a metric on top of it
            continue  # (`imput_loss` beside `loss`): one step's forward, its unrolled loop's steps are not iterations kept
        lines = tuple(sorted(l for l, its in per_line.items() if len(its) >= SPAN))
        if lines:
            out.append(KeptGraph(path, nodes, size, max(len(per_line[l]) for l in lines), lines, kinds[path]))
    return sorted(out, key=lambda k: -k.nodes)
