"""A tree of blocks over an autograd graph. dot's layout time explodes on unrolled loops, so
the graph is shown collapsed: blocks by creating line and iteration when provenance was
recorded, else folded linear chains and creation-order ranges; each block has at most
FANOUT children, so expanding one never adds more than FANOUT items to the layout."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..capture.records import GraphSnapshot

FANOUT = 24
CHAIN_MIN = 3

Key = "int | str"  # a node id (int) or a block id ("b3")


@dataclass
class Block:
    id: str
    kind: str               # line | iteration | range | chain | leaves | outside
    children: list          # node ids and block ids
    facts: dict = field(default_factory=dict)
    size: int = 0           # nodes below
    freed: int = 0
    live: int = 0
    stale: bool = False
    failed: bool = False
    path: bool = False


def failing_path(graph: GraphSnapshot) -> set[int]:
    """Nodes on one shortest path from a root to each node where the backward failed."""
    targets = set(graph.failed_at or graph.stale)
    if not targets:
        return set()
    children = defaultdict(list)
    for a, b in graph.edges:
        children[a].append(b)
    before, queue = {r: None for r in graph.roots}, list(graph.roots)
    for nid in queue:  # BFS; `queue` grows while we walk it
        for child in children[nid]:
            if child not in before:
                before[child] = nid
                queue.append(child)
    path = set()
    for target in targets:
        nid = target if target in before else None
        while nid is not None and nid not in path:
            path.add(nid)
            nid = before[nid]
    return path


class BlockTree:
    """Built once per graph; `top` are the keys shown when nothing is expanded."""

    def __init__(self, graph: GraphSnapshot, fanout: int = FANOUT):
        self.graph, self.fanout = graph, fanout
        self.nodes = {n.id: n for n in graph.nodes}
        self.blocks: dict[str, Block] = {}
        self.parent: dict = {}
        self.edges = list(dict.fromkeys(graph.edges))
        self.path = failing_path(graph)
        self.failed, self.stale = set(graph.failed_at), set(graph.stale)
        self.top = self._build()

    # building ------------------------------------------------------------------------
    def _block(self, kind: str, children: list, **facts):
        if len(children) == 1:
            return children[0]
        if len(children) > self.fanout:
            children = self._chunk(children)
            if len(children) == 1:
                return children[0]
        bid = f"b{len(self.blocks)}"
        block = self.blocks[bid] = Block(bid, kind, children, facts)
        for child in children:
            self.parent[child] = bid
        self._aggregate(block)
        return bid

    def _chunk(self, keys: list) -> list:
        while len(keys) > self.fanout:
            parts = -(-len(keys) // self.fanout)
            step = -(-len(keys) // parts)
            keys = [self._block("range", keys[i:i + step]) for i in range(0, len(keys), step)]
        return keys

    def _build(self) -> list:
        inner = sorted((n for n in self.graph.nodes if n.id >= 0), key=lambda n: -n.id)
        leaves = [n.id for n in self.graph.nodes if n.id < 0]
        if any(n.line is not None for n in inner):
            units = self._by_provenance(inner)
        else:
            units = self._chains(inner)
        if leaves:
            units.append(self._block("leaves", leaves))
        return self._chunk(units)

    def _by_provenance(self, inner) -> list:
        by_iter: dict = defaultdict(lambda: defaultdict(list))
        for n in inner:
            by_iter[n.iteration][n.line].append(n.id)
        units = []
        for it, lines in by_iter.items():
            keys = [self._block("line" if line is not None else "outside", ids, line=line, iteration=it)
                    for line, ids in lines.items()]
            units.append(self._block("iteration", keys, iteration=it) if len(by_iter) > 1 else keys)
        return [k for u in units for k in (u if isinstance(u, list) else [u])]

    def _chains(self, inner) -> list:
        """Fold runs a -> b where a has one child and b one parent (parents are newer)."""
        out_deg, in_deg, child_of = defaultdict(int), defaultdict(int), {}
        for a, b in self.edges:
            out_deg[a] += 1
            in_deg[b] += 1
            child_of[a] = b
        done, units = set(), []
        for n in inner:
            if n.id in done:
                continue
            chain, cur = [n.id], n.id
            while out_deg[cur] == 1 and child_of[cur] >= 0 and in_deg[child_of[cur]] == 1 \
                    and child_of[cur] not in done and child_of[cur] in self.nodes:
                cur = child_of[cur]
                chain.append(cur)
            done.update(chain)
            if len(chain) >= CHAIN_MIN:
                chain = [self._block("chain", chain, first_op=self.nodes[chain[0]].op,
                                     last_op=self.nodes[chain[-1]].op)]
            units.extend(chain)
        return units

    def _aggregate(self, block: Block) -> None:
        ids, stale = self.failed, self.stale
        for child in block.children:
            if isinstance(child, str):
                c = self.blocks[child]
                block.size += c.size
                block.freed += c.freed
                block.live += c.live
                block.stale |= c.stale
                block.failed |= c.failed
                block.path |= c.path
                lo, hi = c.facts["first"], c.facts["last"]
                its = c.facts.get("iters", ())
            else:
                n = self.nodes[child]
                block.size += 1
                block.freed += n.state == "freed"
                block.live += n.state == "live"
                block.stale |= child in stale
                block.failed |= child in ids
                block.path |= child in self.path
                lo = hi = child
                its = () if n.iteration is None else (n.iteration, n.iteration)
            f = block.facts
            f["first"] = min(f.get("first", lo), lo)
            f["last"] = max(f.get("last", hi), hi)
            if its:
                old = f.get("iters", its)
                f["iters"] = (min(old[0], its[0]), max(old[1], its[1]))

    # queries -------------------------------------------------------------------------
    def ancestors(self, key) -> list[str]:
        out = []
        while key in self.parent:
            key = self.parent[key]
            out.append(key)
        return out

    def node_ids(self, key) -> list[int]:
        if not isinstance(key, str):
            return [key]
        out, stack = [], [key]
        while stack:
            k = stack.pop()
            if isinstance(k, str):
                stack.extend(self.blocks[k].children)
            else:
                out.append(k)
        return out
