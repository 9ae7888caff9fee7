"""Codemods that patch the user's exact code; `propose` picks them for a hit."""
from __future__ import annotations

from ..evidence import Evidence
from ..report import Fix
from ..rules.base import Hit


def propose(hit: Hit, evidence: Evidence, lang: str) -> tuple[Fix, ...]:
    """Ranked fixes for `hit`, the first being the one to apply; () when none is safe."""
    from ..rules.registry import rule_for

    rule = rule_for(hit.cause)
    make = getattr(rule, "fixes", None)
    if make is None:
        return ()
    return tuple(make(hit, evidence, lang))
