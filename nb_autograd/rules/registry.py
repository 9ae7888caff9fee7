"""Find every rule module, run them safely, rank their hits."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from ..evidence import Evidence
from .base import Hit

GROUPS = ("second_backward", "errors", "silent", "distributed")
_rules: list[ModuleType] | None = None


def is_rule_module(name: str) -> bool:
    """Rules are the modules of a group; `_helpers` and `*_examples` only serve them."""
    return not name.startswith("_") and not name.endswith("_examples")


def checked(module: ModuleType) -> ModuleType:
    name = module.__name__.rpartition(".")[2]
    if getattr(module, "CAUSE", None) != name:
        raise RuntimeError(f"{module.__name__}: CAUSE={getattr(module, 'CAUSE', None)!r} != module name {name!r}")
    return module


def all_rules() -> list[ModuleType]:
    """Rule modules, one per cause id: the module's name is its cause id, and a module whose
    CAUSE says otherwise is an error, not a rule quietly left out."""
    global _rules
    if _rules is None:
        found = []
        for group in GROUPS:
            package = importlib.import_module(f"{__package__}.{group}")
            for info in pkgutil.iter_modules(package.__path__):
                if not is_rule_module(info.name):
                    continue
                found.append(checked(importlib.import_module(f"{package.__name__}.{info.name}")))
        _rules = found
    return _rules


def rule_for(cause: str) -> ModuleType | None:
    return next((r for r in all_rules() if r.CAUSE == cause), None)


def run_rules(evidence: Evidence) -> list[Hit]:
    """Hits ranked best first. A rule that raises is skipped: explaining never fails a cell."""
    hits = []
    symptom = evidence.symptom.id if evidence.symptom else None
    for rule in all_rules():
        if getattr(rule, "SYMPTOM", None) != symptom:
            continue
        try:
            hit = rule.match(evidence)
        except Exception:
            continue
        if hit is not None:
            hits.append(hit)
    return sorted(hits, key=lambda h: -h.score)
