"""What a cell assigns and what it needs from the cells before it, read from its text: how the
notebook's runs are chosen that a failing cell depends on."""
from __future__ import annotations

import ast


def cell_contract(text: str) -> tuple[set[str], set[str]]:
    """(names it assigns or defines, names it needs from earlier cells) — a cell's contract
    with the others. A name it reads before it first assigns it (`h` in `out, h = rnn(x, h)`)
    is both: its first value comes from an earlier cell."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set(), set()
    stored, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, ast.alias):
            stored.add((node.asname or node.name).split(".")[0])
    return stored, read - stored | _read_first(tree.body)


def names_read(text: str) -> set[str]:
    """Every name the text reads."""
    try:
        return {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    except SyntaxError:
        return set()


def _read_first(body: list[ast.stmt]) -> set[str]:
    """Names the top-level code reads before it first assigns them, in the order it runs
    (an assignment's value before its targets, a loop's iterable before its body)."""
    seen, first = set(), set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                seen.add(node.name)
            return
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load) and node.id not in seen:
                first.add(node.id)
            seen.add(node.id)
            return
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id not in seen:
                first.add(node.target.id)
            for part in [node.value] + (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if part is not None:
                    visit(part)
            return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            for part in [node.iter, node.target, *node.body, *node.orelse]:
                visit(part)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in body:
        visit(stmt)
    return first
