"""From a rule's ranked wishes (codemod + where) to checked Fixes: a patch that does not
parse, changes nothing, repeats an earlier one or would change again if re-applied is dropped."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Iterable

from ..i18n import has, text
from ..report import Fix
from .cst import parses, unified_diff

KINDS = ("add_detach", "detach_state", "wrap_no_grad", "move_backward_after_loop", "use_item",
         "sum_losses", "detach_shared", "remove_repeated_backward", "add_retain_graph", "move_into_loop",
         "add_create_graph", "recompute_cached", "use_item_per_key", "reset_total", "reset_in_function", "clear_after_backward",
         "sum_loop_backward", "collect_loop_losses", "read_stored_grads", "copy_into_loop", "reset_module_state", "reset_before_accumulating",
         "assign_detach", "recompute_shared", "reinit_state", "parameter_in_forward", "derive_on_read", "detach_stores", "clear_module_cache",
         # family C
         "add_zero_grad", "detach_accumulated", "detach_statistics",
         # family B
         "out_of_place", "clone_before_write", "move_step_after_backward", "recompute_after_step", "remove_no_grad",
         "keep_in_graph", "unfreeze", "no_grad_for_inference", "add_requires_grad", "init_under_no_grad", "reduce_to_scalar",
         "detach_numpy", "numpy_to_torch", "to_device", "inline_helper", "loss_from_scores", "clear_cache_on_train", "wrap_enable_grad",
         # distributed
         "set_call_keyword", "detach_after_use", "detach_tables", "with_per_iteration", "detach_before_write")


@dataclass(frozen=True)
class Plan:
    kind: str                                  # a codemod in nb_autograd/fixes/<kind>.py
    where: tuple[tuple[str, object], ...]      # its keyword arguments
    title: str = ""                            # catalog key under [fix] when not `kind`
    facts: tuple[tuple[str, str], ...] = ()    # placeholders for the title and note


@dataclass(frozen=True)
class CodemodFix(Fix):
    """A Fix that remembers how it was made, so it can be re-applied (idempotency checks)."""

    where: tuple[tuple[str, object], ...] = ()


def plan(kind: str, title: str = "", facts: dict | None = None, **where) -> Plan:
    return Plan(kind, tuple(where.items()), title, tuple((facts or {}).items()))


def codemod(kind: str) -> Callable[..., str | None]:
    if kind not in KINDS:
        raise KeyError(kind)
    return getattr(importlib.import_module(f"{__package__}.{kind}"), kind)


def apply(kind: str, source: str, where) -> str | None:
    """The patched source, or None when the codemod cannot apply safely (or crashes)."""
    try:
        return codemod(kind)(source, **dict(where))
    except Exception:
        return None


def build(source: str, lang: str, plans: Iterable[Plan]) -> tuple[CodemodFix, ...]:
    """Fixes in the rule's order, except that a plain retain_graph always goes last (one the
    rule titled for a case where both passes are meant keeps its place)."""
    out: list[CodemodFix] = []
    for p in sorted(plans, key=lambda p: p.kind == "add_retain_graph" and not p.title):
        patched = apply(p.kind, source, p.where)
        if patched is None or patched == source or not parses(patched):
            continue
        again = apply(p.kind, patched, p.where)
        if again is not None and again != patched:
            continue
        if any(f.patched_source == patched for f in out):
            continue
        facts = dict(p.facts)
        key = p.title or p.kind
        note = text(f"fix_note.{key}", lang, **facts) if has(f"fix_note.{key}", lang) else ""
        out.append(CodemodFix(p.kind, text(f"fix.{key}", lang, **facts), patched,
                              unified_diff(source, patched), note, where=p.where))
    return tuple(out)
