"""Set one keyword argument on every call of a function, the function found by what the
imports make it (`DDP(model)` with `from torch.nn.parallel import DistributedDataParallel as DDP`):
`find_unused_parameters=True` or `static_graph=True` on DistributedDataParallel,
`use_reentrant=False` on torch.utils.checkpoint.checkpoint."""
from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, QualifiedNameProvider

FUNCTIONS = {"ddp": ("torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
                     "torch.nn.DataParallel.DistributedDataParallel"),
             "checkpoint": ("torch.utils.checkpoint.checkpoint",)}


class _Set(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, names: tuple[str, ...], keyword: str, value: str):
        super().__init__()
        self.names, self.keyword, self.value, self.changed = set(names), keyword, value, False

    def leave_Call(self, original, updated):
        qualified = {q.name for q in self.get_metadata(QualifiedNameProvider, original.func, set())}
        if not qualified & self.names:
            return updated
        new = cst.parse_expression(self.value)
        given = next((a for a in updated.args if a.keyword and a.keyword.value == self.keyword), None)
        if given is not None:
            if given.value.deep_equals(new):
                return updated
            args = [a.with_changes(value=new) if a is given else a for a in updated.args]
        else:
            arg = cst.Arg(new, keyword=cst.Name(self.keyword),
                          equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
            args = [*updated.args[:-1], updated.args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT), arg] \
                if updated.args else [arg]
        self.changed = True
        return updated.with_changes(args=args)


def set_call_keyword(source: str, *, function: str, keyword: str, value: str) -> str | None:
    try:
        wrapper = MetadataWrapper(cst.parse_module(source))
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    setter = _Set(FUNCTIONS[function], keyword, value)
    out = wrapper.visit(setter)
    return out.code if setter.changed else None
