"""Lay out the visible part of a graph with Graphviz. `graphviz-pure` (a pip-installed port
with dot's flags) by default, since users often lack a system `dot`; NB_AUTOGRAD_DOT may
name another dot-compatible program. Bigger views get straight edges and capped
iterations, without which dot takes minutes on unrolled recurrent graphs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import unicodedata

from .collapse import BlockTree
from .labels import block_label, words_plain
from .svg_safe import clean_svg

ENGINE_ENV = "NB_AUTOGRAD_DOT"
FAST_ABOVE = 60  # items; above this, use the fast flags
FAST_FLAGS = ("-Gsplines=line", "-Gmclimit=0.01", "-Gnslimit=1", "-Gnslimit1=1")
TIMEOUT_S = 30
LEAF_EDGES_UP_TO = 40  # items; above this, one edge into each leaf


class LayoutError(RuntimeError):
    pass


def engine() -> str | None:
    chosen = os.environ.get(ENGINE_ENV)
    if chosen:
        return shutil.which(chosen) or chosen
    found = shutil.which("graphviz-pure")
    if found:
        return found
    local = os.path.join(sysconfig.get_path("scripts"), "graphviz-pure")
    return local if os.path.exists(local) else None


def dom_id(key) -> str:
    """A node or block key as an SVG id: n17 (node 17), m12345 (leaf), b3 (block)."""
    if isinstance(key, str):
        return key
    return f"n{key}" if key >= 0 else f"m{-key}"


def parse_id(text: str):
    if text[:1] == "b":
        return text
    if text[:1] in "nm" and text[1:].isdigit():
        return int(text[1:]) if text[0] == "n" else -int(text[1:])
    return None


def dot_text(text) -> str:
    """Text for inside a DOT quoted string whose SVG shows `text` literally: markup
    characters become entities (Graphviz keeps valid entities), a backslash is doubled (an
    entity would be decoded before dot reads \\n or \\l)."""
    text = str(text).replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace('"', "&quot;").replace("'", "&#39;")
    return "".join(c if c.isprintable() else " " for c in text)


def dot_label(*lines) -> str:
    return '"' + "\\n".join(dot_text(line) for line in lines) + '"'


def width_attr(*lines, fontsize: float = 10) -> str:
    """graphviz-pure has no metrics for non-ASCII text (CJK would get a space's width), so
    give such nodes a width from an estimate: wide characters 1 em, others 0.6 em."""
    lines = [str(line) for line in lines]
    if all(line.isascii() for line in lines):
        return ""
    ems = max(sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in line) for line in lines)
    return f" width={ems * fontsize / 72 + 0.3:.2f}"


def node_stmt(tree: BlockTree, key, lang: str) -> str:
    if isinstance(key, str):
        b = tree.blocks[key]
        w = words_plain(lang)
        second = w["block_size"].format(size=b.size)
        if b.freed:
            second += ", " + w["block_freed"].format(freed=b.freed)
        state = "freed" if b.freed else "live" if b.live else "none"
        classes = ["block", state] + [c for c, on in (("failed", b.failed), ("stale", b.stale), ("path", b.path)) if on]
        first = block_label(b.kind, b.facts, lang)
        label = dot_label(first, second) + width_attr(first, second)
        return f'{dom_id(key)} [id="{dom_id(key)}" class="{" ".join(classes)}" shape=box3d label={label}]'
    n = tree.nodes[key]
    classes = [n.state] + [c for c, on in (("leaf", n.is_leaf), ("root", key in tree.graph.roots),
                                           ("failed", key in tree.failed), ("stale", key in tree.stale),
                                           ("path", key in tree.path)) if on]
    text = (dot_label(n.op, tuple(n.leaf_shape)) if n.is_leaf else dot_label(n.op)) + width_attr(n.op)
    shape = " shape=ellipse" if n.is_leaf else ""
    return f'{dom_id(key)} [id="{dom_id(key)}" class="{" ".join(classes)}"{shape} label={text}]'


def leafish(tree: BlockTree, key) -> bool:
    """A leaf node, or a block holding only leaves (their ids are negative)."""
    return key < 0 if isinstance(key, int) else tree.blocks[key].facts["last"] < 0


def thin_leaf_edges(tree: BlockTree, edges: list, keep_all: bool) -> list:
    """Parameters feed every step of a loop: in bigger views keep one edge into each leaf
    (it still anchors the leaf below its user) instead of dozens of long curves."""
    if keep_all:
        return edges
    seen, out = set(), []
    for a, b, on_path in edges:
        if leafish(tree, b) and not on_path:
            if b in seen:
                continue
            seen.add(b)
        out.append((a, b, on_path))
    return out


def to_dot(tree: BlockTree, visible: list, edges: list, lang: str) -> str:
    lines = ["digraph G {", ' graph [rankdir=TB nodesep=0.15 ranksep=0.3 bgcolor="transparent"]',
             ' node [shape=box style="rounded,filled" fillcolor="#ffffff" fontname="Helvetica" fontsize=10 '
             'height=0.25 margin="0.08,0.03"]', " edge [arrowsize=0.5]"]
    lines += [" " + node_stmt(tree, key, lang) for key in visible]
    for i, (a, b, on_path) in enumerate(thin_leaf_edges(tree, edges, len(visible) <= LEAF_EDGES_UP_TO)):
        cls = ' class="path"' if on_path else ' class="leaf" weight=0' if leafish(tree, b) else ""
        lines.append(f' {dom_id(a)} -> {dom_id(b)} [id="e{i}"{cls}]')
    lines.append("}")
    return "\n".join(lines)


def run_engine(dot: str, fast: bool) -> str:
    program = engine()
    if program is None:
        raise LayoutError("no Graphviz program (pip install graphviz-pure, or set NB_AUTOGRAD_DOT)")
    args = [program, "-Tsvg", *(FAST_FLAGS if fast else ())]
    try:
        done = subprocess.run(args, input=dot.encode(), capture_output=True, timeout=TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LayoutError(f"{type(exc).__name__}: {exc}") from None
    if done.returncode != 0:
        raise LayoutError(done.stderr.decode(errors="replace")[:300])
    return clean_svg(done.stdout.decode("utf-8", errors="replace"))


def layout(tree: BlockTree, visible: list, edges: list, lang: str) -> str:
    """Visible items and edges -> a cleaned SVG string."""
    return run_engine(to_dot(tree, visible, edges, lang), fast=len(visible) > FAST_ABOVE)
