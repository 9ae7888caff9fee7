"""What a rule is: a cause id, the symptom it answers, examples that run, and `match`."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Hit:
    """A rule's claim: this cause, rooted at this line of the cell."""

    cause: str
    line: int | None
    score: float
    facts: tuple[tuple[str, str], ...] = ()   # placeholders for the catalog messages
    related: tuple[tuple[str, int], ...] = ()  # (role, line): other lines worth showing
    variant: str = ""                          # picks a message/fix variant, e.g. "gan"

    def fact(self, key: str, default: str = "") -> str:
        return dict(self.facts).get(key, default)


@dataclass(frozen=True)
class Example:
    """Runnable code. For a BAD example: the line the rule must name, and the code a fix
    should produce when the rule's first fix is applied (`fixed`, optional)."""

    code: str
    line: int | None = None
    fixed: str | None = None
    note: str = ""
    needs: tuple[str, ...] = field(default=())  # e.g. ("cuda",)
