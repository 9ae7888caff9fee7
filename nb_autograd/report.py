"""What the public API returns: a Report holding ranked Diagnoses, each with its Fixes."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .capture.records import Capture, GraphSnapshot, Place


@dataclass(frozen=True)
class Edit:
    """One more cell or file a fix changes: a step moved from the cell that ran it too early
    to the cell after the backward it broke changes both, and half of that breaks the code."""
    target: Place
    patched_source: str   # the whole new source of that cell or file
    diff: str = ""


@dataclass(frozen=True)
class Fix:
    kind: str             # the codemod's name, e.g. "add_detach"
    title: str
    patched_source: str   # the whole new source of its target (a cell or a file)
    diff: str = ""        # unified diff against the target's source
    note: str = ""        # what to know before applying (memory cost, ...)
    target: Place = field(default_factory=Place)  # the cell or file it changes
    also: tuple[Edit, ...] = ()  # the other cells or files it changes, applied together


@dataclass(frozen=True)
class Diagnosis:
    cause: str            # a taxonomy id
    line: int | None      # 1-based line of the root cause in the source
    title: str
    explanation: str      # what + why, one paragraph each
    fixes: tuple[Fix, ...] = ()
    what: str = ""
    why: str = ""
    related: tuple[tuple[str, int], ...] = ()
    score: float = 0.0
    hint: str = ""        # what to change, in words, when no patch is safe
    place: Place = field(default_factory=Place)  # where `line` is: a cell run or a file
    context: str = ""     # the text `line` and `related` count in, when not the report's source


@dataclass(frozen=True)
class Report:
    error: str | None                 # "RuntimeError: ..." or None when the code ran clean
    diagnoses: tuple[Diagnosis, ...] = ()
    source: str = ""
    lang: str = "en"
    graph: GraphSnapshot | None = None
    trace: str = ""                   # what the recorder saw, in words
    watched: bool = False
    cell_id: str | None = None
    findings: tuple[Diagnosis, ...] = field(default=())  # silent problems (no exception)
    unrecognised: str = ""            # what the runtime saw, when no known pattern matched
    capture: Capture | None = field(default=None, repr=False, compare=False)  # plain records, to re-explain in another language

    @property
    def top(self) -> Diagnosis | None:
        return self.diagnoses[0] if self.diagnoses else None

    def to_dict(self) -> dict:
        """The `--json` shape: error and diagnoses, each with its fixes. A fix that changes
        more than one cell or file lists the others under "also" (absent otherwise)."""
        return {
            "error": self.error,
            "diagnoses": [
                {"cause": d.cause, "line": d.line, "where": d.place.as_dict(), "title": d.title,
                 "explanation": d.explanation,
                 "fixes": [_fix_dict(f) for f in d.fixes]}
                for d in (*self.diagnoses, *self.findings)
            ],
        }

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kwargs)


def _fix_dict(fix: Fix) -> dict:
    out = {"kind": fix.kind, "title": fix.title, "where": fix.target.as_dict(line=False),
           "patched_source": fix.patched_source}
    if fix.also:
        out["also"] = [{"where": e.target.as_dict(line=False), "patched_source": e.patched_source} for e in fix.also]
    return out
