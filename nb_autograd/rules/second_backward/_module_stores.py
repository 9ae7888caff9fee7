"""What a module keeps on itself across steps, as the runtime found it stale: a tensor it was
given in its constructor, or one its own methods store (a cache, a history, a statistic)."""
from __future__ import annotations

import re

from ...evidence import Evidence

_dict_key = re.compile(r"\[['\"][^'\"]*['\"]\]$")  # `cache['road']`: an entry of a dict the module keeps


def makes_parameter(a) -> bool:
    """`torch.exp(nn.Parameter(...))`: a value derived from a parameter created on the spot."""
    return any(r.split(".")[-1] == "Parameter" for r in a.reads) and (a.call or "").split(".")[-1] != "Parameter"


def set_in_constructor(ev: Evidence) -> list[tuple[str, int]]:
    """A module keeps a tensor it was given when built (`self.target = target` in `__init__`,
    the style-transfer loss modules) and never sets it again: the runtime found it stale on
    a module, so every call after the first backward reads a freed graph."""
    out = []
    for holder in ev.holders:
        if not holder.stale or "." not in holder.path:
            continue
        attr = "self." + _dict_key.sub("", holder.path.rsplit(".", 1)[1])
        made = [a for a in ev.code.assigns_to(attr) if not a.detached and not a.no_grad and a.reads]
        if made and all(getattr(ev.code.function_at(a.line), "name", "") == "__init__" for a in ev.code.assigns_to(attr)) \
                and not any(makes_parameter(a) or _given_made_on_the_spot(ev, a.line) or _derived_at_construction(ev, a)
                            or from_own_parameter(ev, a) for a in made):
            out.append((attr, max(a.line for a in made)))  # (derived from a parameter made there: computed before the loop)
    return out


def _derived_at_construction(ev: Evidence, a) -> bool:
    """`model, _ = clip.load(arch)` then `self.logit_scale = model.logit_scale.exp()` in
    `__init__`: computed from what the constructor itself made, none of its arguments; a
    derived value computed once, not a tensor kept from a step."""
    f = ev.code.function_at(a.line)
    roots = {r.split(".")[0] for r in a.reads} - {"self"}
    if f is None or not roots or roots & set(f.params):
        return False
    return bool(roots & (ev.code.locals_of(f, before=a.line) - set(f.params)))


def from_own_parameter(ev: Evidence, a) -> bool:
    """`self.widths = softmax(self.unnormalized_widths)` after the constructor made
    `self.unnormalized_widths = nn.Parameter(...)`: a value derived once from the module's own
    parameter (computed before the loop), not a tensor it was handed."""
    return any(r.startswith("self.") and any((b.call or "").split(".")[-1] == "Parameter" for b in ev.code.assigns_to(r))
               for r in a.reads)


def _given_made_on_the_spot(ev: Evidence, line: int) -> bool:
    """The constructor keeps an argument its caller made from a module built on the spot."""
    from .computed_before_loop import given_to_constructor, made_on_the_spot

    given = given_to_constructor(ev, line)
    return given is not None and any(made_on_the_spot(a) for a in ev.code.assigns if a.line == given[1])


def kept_by_module(ev: Evidence) -> list[tuple[str, int]]:
    """A module stores a tensor on itself in one of its methods (a cache, a history, a running
    statistic: `self.cache = x`, `self.register_buffer("cache", x)`) and the runtime found that
    attribute stale: (self.attr, the store's line)."""
    out = []
    for holder in ev.holders:
        if not holder.stale or "." not in holder.path:
            continue
        attr = "self." + _dict_key.sub("", holder.path.rsplit(".", 1)[1])
        stores = ev.code.attribute_writes(attr)
        if stores:
            out.append((attr, max(stores)))
    return out


def module_cache(ev: Evidence, name: str, store) -> str | None:
    """`self.cache.update(...)` / `self.cache[k] = v` in a module's method, and the runtime found
    that dict on a module holding the freed graph: the cache as the training code spells it
    (`text_encoder.cache`), when the failing backward is written in that code."""
    if store is None or store.method not in ("update", "setdefault", "setitem") or not name.startswith("self.") \
            or ev.backward_site is None:
        return None
    paths = {h.path.split("[")[0] for h in ev.holders_of(name) if h.stale and h.path.endswith("]")}
    return paths.pop() if len(paths) == 1 else None
