"""LibCST plumbing every codemod shares: parse once, find a statement by its line, walk to its
block, print back. LibCST (not ast) because the user's comments and layout must survive."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Mapping

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider, QualifiedNameProvider
from ..evidence.cuts import DETACHING

STATEMENT = (cst.SimpleStatementLine, cst.BaseCompoundStatement)
AUTOGRAD = frozenset(("torch.autograd.grad", "torch.autograd.backward"))
LOOP = (cst.For, cst.While)


@dataclass(frozen=True)
class Tree:
    """A parsed cell with node positions and parents (node identity is the key)."""

    module: cst.Module
    positions: Mapping[cst.CSTNode, object]
    parents: Mapping[cst.CSTNode, cst.CSTNode]
    autograd: Mapping[cst.Call, str] = None  # calls of torch.autograd.grad/backward however imported

    def line(self, node: cst.CSTNode) -> int:
        return self.positions[node].start.line

    def statement(self, line: int | None, kind=STATEMENT) -> cst.CSTNode | None:
        """The innermost statement of `kind` that starts at `line`."""
        found = None
        for node, pos in self.positions.items():
            if isinstance(node, kind) and pos.start.line == line:
                if found is None or self.inside(node, found):
                    found = node
        return found

    def inside(self, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
        while node in self.parents:
            node = self.parents[node]
            if node is outer:
                return True
        return False

    def enclosing(self, node: cst.CSTNode, kind) -> cst.CSTNode | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, kind):
                return node
        return None

    def block(self, stmt: cst.CSTNode) -> tuple[cst.CSTNode, int] | None:
        """(the Module or IndentedBlock holding `stmt`, its index there); None for one-line bodies."""
        parent = self.parents.get(stmt)
        if isinstance(parent, (cst.Module, cst.IndentedBlock)):
            return parent, list(parent.body).index(stmt)
        return None

    def rewrite(self, transformer: cst.CSTTransformer) -> str | None:
        """The source after `transformer`, which sees this tree's nodes as `original` (so it
        can ask `line(original)`); None when nothing changed."""
        code = self.module.visit(transformer).code
        return None if code == self.module.code else code

    def replace(self, old: cst.CSTNode, new: cst.CSTNode | cst.RemovalSentinel) -> str:
        if isinstance(new, cst.RemovalSentinel):
            return self.module.deep_remove(old).code
        return self.module.deep_replace(old, new).code


def with_body(tree: Tree, block: cst.CSTNode, body: list) -> str:
    """The source with `block` (the Module or an IndentedBlock) holding `body` instead."""
    if block is tree.module:
        return block.with_changes(body=body).code
    return tree.replace(block, block.with_changes(body=body))


def facts_of(nodes):
    """The evidence reader's facts about some statements (names assigned and read)."""
    from ..evidence.code_reader import read_code

    return read_code("".join(code_of(n) for n in nodes))


def load(source: str) -> Tree | None:
    try:
        wrapper = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
        parents = wrapper.resolve(ParentNodeProvider)
        names = wrapper.resolve(QualifiedNameProvider)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    autograd = {}
    for node in positions:
        if isinstance(node, cst.Call):
            found = names.get(node.func, ())
            qualified = {q.name for q in (found() if callable(found) else found)} & AUTOGRAD  # resolved lazily
            if qualified:
                autograd[node] = qualified.pop().rpartition(".")[2]
    return Tree(wrapper.module, positions, parents, autograd)


def expr(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


def code_of(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def only_small(stmt: cst.CSTNode | None, kind=cst.BaseSmallStatement):
    """The single small statement of a one-statement line, if it is a `kind`."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], kind):
        return stmt.body[0]
    return None


@dataclass(frozen=True)
class ConstructorAssign:
    """`self.<name> = value` alone on its line, in a class's `__init__`."""
    stmt: cst.SimpleStatementLine
    assign: cst.Assign
    init: cst.FunctionDef
    cls: cst.ClassDef
    name: str  # "self.<name>"


def constructor_assign(tree: Tree | None, line: int) -> ConstructorAssign | None:
    stmt = tree.statement(line, cst.SimpleStatementLine) if tree else None
    assign = only_small(stmt, cst.Assign)
    init = stmt and tree.enclosing(stmt, cst.FunctionDef)
    cls = init and tree.enclosing(init, cst.ClassDef)
    if assign is None or cls is None or init.name.value != "__init__" or len(assign.targets) != 1:
        return None
    name = dotted(assign.targets[0].target) or ""
    return ConstructorAssign(stmt, assign, init, cls, name) if name.startswith("self.") else None


def detached(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node.detach()`, parenthesised when `node` binds looser than an attribute access."""
    if is_detach(node):
        return node
    atom = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)
    base = node if isinstance(node, atom) or node.lpar else node.with_changes(
        lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(func=cst.Attribute(value=base, attr=cst.Name("detach")))


def is_detach(node: cst.CSTNode) -> bool:
    return (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in DETACHING)


def dotted(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def autograd_function(node: cst.CSTNode | None, tree: Tree | None = None) -> str | None:
    """"grad" or "backward" for a call of torch.autograd's, resolved through the imports
    (`from torch.autograd import grad`, `import torch.autograd as ag`) when the tree is known."""
    if not isinstance(node, cst.Call):
        return None
    if tree is not None and tree.autograd is not None and node in tree.autograd:
        return tree.autograd[node]
    name = dotted(node.func) or ""
    return name.rpartition(".")[2] if name.endswith(("autograd.backward", "autograd.grad")) else None


def backward_call(node: cst.CSTNode | None, tree: Tree | None = None) -> cst.Call | None:
    """`x.backward(...)`, or torch.autograd's `backward(...)` / `grad(...)` however imported."""
    if not isinstance(node, cst.Call):
        return None
    if isinstance(node.func, cst.Attribute) and node.func.attr.value == "backward":
        return node
    return node if autograd_function(node, tree) else None


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    node.visit(_Calls())
    return found


class _Swap(cst.CSTTransformer):
    def __init__(self, mapping: dict):
        super().__init__()
        self.mapping = mapping

    def on_leave(self, original, updated):
        return self.mapping.get(original, updated)


def swap(node: cst.CSTNode, mapping: dict) -> cst.CSTNode:
    """`node` with each key of `mapping` (an original node, by identity) replaced by its value."""
    return node.visit(_Swap(mapping)) if mapping else node


def reads_of(node: cst.CSTNode, names) -> list[cst.CSTNode]:
    """Loads of the dotted `names` inside `node`, outermost match only, skipping ones already
    detached and attribute/keyword names (which are Name nodes too in LibCST)."""
    found: list[cst.CSTNode] = []

    class _Reads(cst.CSTVisitor):
        def visit_Attribute(self, n):
            if dotted(n) in names:
                found.append(n)
            else:
                n.value.visit(self)
            return False

        def visit_Name(self, n):
            if n.value in names:
                found.append(n)

        def visit_Arg(self, n):
            n.value.visit(self)
            return False

        def visit_Call(self, n):
            return not (is_detach(n) and dotted(n.func.value) in names)

        def visit_Lambda(self, n):
            return False

    node.visit(_Reads())
    return found


def optimizer_call(stmt) -> bool:
    """A line of optimizer calls only: `opt.step()`, or `opt.step(); opt.zero_grad()`."""
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, cst.Expr) and isinstance(s.value, cst.Call) and isinstance(s.value.func, cst.Attribute)
        and s.value.func.attr.value in {"step", "zero_grad"} for s in stmt.body)


def backward_line_call(stmt, tree: Tree | None = None) -> cst.Call | None:
    """The backward of a line of plain calls: `loss.backward()`, or a notebook's one-line update
    `opt.zero_grad(); loss.backward(); opt.step()`; what goes after the backward goes after that line."""
    if not isinstance(stmt, cst.SimpleStatementLine) or not all(isinstance(s, cst.Expr) for s in stmt.body):
        return None
    return next((c for s in stmt.body if (c := backward_call(s.value, tree)) is not None), None)


def after_update(tree: Tree | None, backward_line: int) -> tuple[cst.CSTNode, int, int] | None:
    """(the block holding the backward statement at `backward_line`, its index, the index
    after the optimizer calls right behind it): where what must happen once per update goes."""
    bw = tree and tree.statement(backward_line, cst.SimpleStatementLine)
    if backward_line_call(bw, tree) is None or tree.block(bw) is None:
        return None
    block, index = tree.block(bw)
    end = index + 1
    while end < len(block.body) and optimizer_call(block.body[end]):
        end += 1
    return block, index, end


_FUTURE = re.compile(r"^from __future__ import .*$", re.M)


def parses(source: str) -> bool:
    """Compiles, read as the pieces it is made of: a program joined from cells and user files
    has the files' `from __future__` imports in its middle, which only a file's start allows."""
    try:
        compile(_FUTURE.sub("pass", source), "<fix>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def unified_diff(old: str, new: str, name: str = "cell") -> str:
    """`---`/`+++` headers then hunks; every line ends in a newline so the text joins cleanly."""
    def lines(text: str) -> list[str]:
        return [l if l.endswith("\n") else l + "\n" for l in text.splitlines(True)]
    return "".join(difflib.unified_diff(lines(old), lines(new), f"a/{name}", f"b/{name}"))
