"""A module's constructor derives a value from its own parameter (`self.raw = nn.Parameter(...)`,
then `self.scale = F.softplus(self.raw)`): computed once, its graph is freed by the first
backward, and the parameter behind it never learns through it again. Derive it on every read
instead, as a property of the class (the constructor's assignment goes). Refused when the
value needs the constructor's own variables, or the name is set or defined anywhere else
(a parent class assigning it would hit a property without a setter)."""
from __future__ import annotations

import libcst as cst

from .cst import code_of, constructor_assign, dotted, load


def _bound_in(function: cst.FunctionDef) -> set[str]:
    """The constructor's parameters and the plain names it assigns."""
    names = {p.name.value for p in function.params.params} | {p.name.value for p in function.params.kwonly_params}
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)

    class _Assigned(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Name):
                names.add(node.target.value)
    function.visit(_Assigned())
    return names


def _names_read(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Attribute(self, n):
            n.value.visit(self)
            return False

        def visit_Name(self, n):
            found.add(n.value)
    node.visit(_Names())
    return found


def derive_on_read(source: str, *, line: int) -> str | None:
    tree = load(source)
    found = constructor_assign(tree, line)
    if found is None or tree.parents.get(found.stmt) is not found.init.body:
        return None
    stmt, assign, init, cls, name = found.stmt, found.assign, found.init, found.cls, found.name
    attr = name[len("self."):]
    if "." in attr or _names_read(assign.value) & (_bound_in(init) - {"self"}):
        return None
    for node in tree.positions:
        if node is not assign and isinstance(node, cst.Assign) and any(dotted(t.target) == name for t in node.targets) \
                or isinstance(node, cst.FunctionDef) and node.name.value == attr:
            return None
    body = [s for s in init.body.body if s is not stmt]
    if not body:
        return None
    prop = cst.parse_statement(f"@property\ndef {attr}(self):\n    return {code_of(assign.value)}\n")
    members = list(cls.body.body)
    at = members.index(init) + 1
    new_cls = cls.with_changes(body=cls.body.with_changes(body=[
        *members[:at - 1], init.with_changes(body=init.body.with_changes(body=body)),
        prop.with_changes(leading_lines=[cst.EmptyLine(indent=False)]), *members[at:]]))
    return tree.replace(cls, new_cls)
