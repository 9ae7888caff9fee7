"""Find every rule module, run them safely, rank their hits."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from ..evidence import Evidence
from .base import Hit

GROUPS = ("second_backward", "errors", "silent")
_rules: list[ModuleType] | None = None


def all_rules() -> list[ModuleType]:
    """Rule modules, one per cause id; the file name is the cause id."""
    global _rules
    if _rules is None:
        found = []
        for group in GROUPS:
            package = importlib.import_module(f"{__package__}.{group}")
            for info in pkgutil.iter_modules(package.__path__):
                module = importlib.import_module(f"{package.__name__}.{info.name}")
                if getattr(module, "CAUSE", None) == info.name:
                    found.append(module)
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
