"""Which blocks of a BlockTree are open, and the graph that results: visible items and the
edges between them. The first view opens the blocks around the failing node, then fills up
to START_LIMIT items, failing and stale blocks first."""
from __future__ import annotations

import heapq

from .collapse import BlockTree

START_LIMIT = 60     # items in the first view
ALL_LIMIT = 200      # "expand all" stops before the layout gets slow
HARD_LIMIT = 320     # opening one more block is refused beyond this (layout would take seconds)


class Expansion:
    def __init__(self, tree: BlockTree):
        self.tree = tree
        self.open: set[str] = set()

    def visible(self) -> list:
        out, stack = [], list(reversed(self.tree.top))
        while stack:
            key = stack.pop()
            if isinstance(key, str) and key in self.open:
                stack.extend(reversed(self.tree.blocks[key].children))
            else:
                out.append(key)
        return out

    def owners(self, visible: list) -> dict[int, object]:
        """Node id -> the visible item that shows it."""
        owner = {}
        for key in visible:
            for nid in self.tree.node_ids(key):
                owner[nid] = key
        return owner

    def edges(self, owner: dict) -> list[tuple[object, object, bool]]:
        """(from, to, on the failing path), one per pair of visible items."""
        path, out = self.tree.path, {}
        for a, b in self.tree.edges:
            ka, kb = owner.get(a), owner.get(b)
            if ka is None or kb is None or ka == kb:
                continue
            out[(ka, kb)] = out.get((ka, kb), False) or (a in path and b in path)
        return [(a, b, p) for (a, b), p in out.items()]

    # changes -------------------------------------------------------------------------
    def expand(self, key) -> bool:
        if key not in self.tree.blocks:
            return False
        if len(self.visible()) + len(self.tree.blocks[key].children) > HARD_LIMIT:
            return False
        self.open.update([key, *self.tree.ancestors(key)])
        return True

    def collapse(self, key) -> bool:
        """Close the block that `key` sits in, and every block inside it."""
        parent = self.tree.parent.get(key)
        if parent is None:
            return False
        stack = [parent]
        while stack:
            k = stack.pop()
            if isinstance(k, str):
                self.open.discard(k)
                stack.extend(self.tree.blocks[k].children)
        return True

    def start(self, limit: int = START_LIMIT) -> None:
        """Collapsed, with the failing node (or stale part, or root) opened up to."""
        g = self.tree.graph
        self.open.clear()
        for nid in list(g.failed_at or g.stale or g.roots)[:4]:
            self.open.update(self.tree.ancestors(nid))
        self.fill(limit)

    def fill(self, limit: int = ALL_LIMIT) -> None:
        """Open blocks, most important first, while the view stays within `limit` items."""
        blocks = self.tree.blocks
        visible = self.visible()
        count, order = len(visible), 0
        heap = []

        def push(key):
            nonlocal order
            b = blocks[key]
            heapq.heappush(heap, (0 if b.failed else 1 if b.stale else 2 if b.path else 3, order, key))
            order += 1

        for key in visible:
            if isinstance(key, str):
                push(key)
        while heap:
            _, _, key = heapq.heappop(heap)
            children = blocks[key].children
            if count - 1 + len(children) > limit:
                continue
            self.open.add(key)
            count += len(children) - 1
            for child in children:
                if isinstance(child, str):
                    push(child)
