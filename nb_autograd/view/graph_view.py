"""One graph on screen: its block tree, what is open, and the plain data the front end
needs (SVG plus details of each visible item). Holds ids and strings, never tensors."""
from __future__ import annotations

from ..capture.records import GraphSnapshot
from .collapse import BlockTree
from .expansion import ALL_LIMIT, Expansion
from .graph_layout import LayoutError, dom_id, layout, parse_id
from .labels import block_label, words_plain
from .svg_safe import UnsafeSvg


class GraphView:
    def __init__(self, graph: GraphSnapshot, calls=()):
        self.tree = BlockTree(graph)
        self.expansion = Expansion(self.tree)
        self.expansion.start()
        self.calls = {c.index: c for c in calls}
        self.focus = None  # the item the front end should centre on after a change
        self.rev = 0       # every answer differs, so the front end always hears back

    def handle(self, action: str, key: str | None = None) -> bool:
        """A click from the front end; True when the view changed."""
        target = parse_id(key) if key else None
        self.focus = None
        if action == "expand" and target is not None and self.expansion.expand(target):
            while isinstance(target, str) and target in self.expansion.open:
                target = self.tree.blocks[target].children[0]
            self.focus = target
            return True
        if action == "collapse" and target is not None:
            self.focus = self.tree.parent.get(target)
            return self.expansion.collapse(target)
        if action == "expand_all":
            self.expansion.fill(ALL_LIMIT)
            return True
        if action == "reset":
            self.expansion.start()
            return True
        return False

    def draw(self, lang: str) -> dict:
        self.rev += 1
        visible = self.expansion.visible()
        owner = self.expansion.owners(visible)
        edges = self.expansion.edges(owner)
        try:
            svg, error = layout(self.tree, visible, edges, lang), ""
        except (LayoutError, UnsafeSvg) as exc:
            svg, error = "", words_plain(lang)["no_layout"].format(why=str(exc))
        nodes = sum(1 for k in visible if not isinstance(k, str))
        return {"svg": svg, "error": error, "items": {dom_id(k): self.item(k, lang) for k in visible},
                "shown": nodes, "total": len(self.tree.nodes), "blocks": len(visible) - nodes,
                "partial": bool(self.tree.graph.truncated),
                "focus": dom_id(self.focus) if self.focus is not None else None, "rev": self.rev, "notice": ""}

    def refused(self, drawn: dict, lang: str) -> dict:
        """The same picture, with a word on why nothing opened."""
        self.rev += 1
        return {**drawn, "rev": self.rev, "notice": words_plain(lang)["too_big"]}

    def item(self, key, lang: str) -> dict:
        tree, w = self.tree, words_plain(lang)
        parent = tree.parent.get(key)
        if isinstance(key, str):
            b = tree.blocks[key]
            return {"kind": "block", "label": block_label(b.kind, b.facts, lang), "size": b.size,
                    "freed": b.freed, "live": b.live, "failed": b.failed, "stale": b.stale,
                    "parent": parent}
        n = tree.nodes[key]
        lines = []
        if n.line is not None:
            lines.append((w["created"] if n.iteration is not None else w["created_line"])
                         .format(line=n.line, iteration=n.iteration))
        if n.freed_by is not None:
            call = self.calls.get(n.freed_by)
            lines.append(w["freed_by"].format(line=call.line, iteration=call.iteration) if call
                         else w["freed_by_n"].format(index=n.freed_by + 1))
        if n.is_leaf:
            lines.append(w["leaf_shape"].format(shape=tuple(n.leaf_shape)))
        return {"kind": "node", "op": n.op, "state": n.state, "leaf": n.is_leaf,
                "root": key in tree.graph.roots, "failed": key in tree.failed, "stale": key in tree.stale,
                "saved": [[s.name, "×".join(map(str, s.shape)) if s.shape else ("scalar" if s.dtype != "?" else "?"),
                           s.dtype, s.nbytes, s.state] for s in n.saved],
                "facts": lines, "parent": parent}
