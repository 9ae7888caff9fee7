"""Delete a statement that turns gradient tracking off for parameters (`p.requires_grad =
False`, `model.requires_grad_(False)`), and a `for` loop left empty by that."""
from __future__ import annotations

import libcst as cst

from .line_edit import BodyEditor, index_at, transform


def unfreeze(source: str, line: int) -> str | None:
    state = {"emptied": False}

    def edit(stmts, lines):
        i = index_at(lines, line)
        if i is not None:
            rest = stmts[:i] + stmts[i + 1:]
            if rest:
                return rest
            state["emptied"] = True
            return [cst.SimpleStatementLine([cst.Pass()])]
        if state["emptied"]:
            for k, s in enumerate(stmts):
                if isinstance(s, cst.For) and _only_pass(s):
                    state["emptied"] = False
                    return stmts[:k] + stmts[k + 1:]
        return None

    return transform(source, BodyEditor(edit))


def _only_pass(loop: cst.For) -> bool:
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    return len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and \
        all(isinstance(s, cst.Pass) for s in body[0].body)
