"""Hit + catalog -> Diagnosis (title, what, why, where, fixes), in one language."""
from __future__ import annotations

from .capture.records import Capture
from .evidence import Evidence
from .fixes import propose
from .i18n import has, text
from .report import Diagnosis
from .rules.base import Hit


def diagnosis(hit: Hit, evidence: Evidence, lang: str) -> Diagnosis:
    facts = dict(hit.facts)
    facts.setdefault("line", str(hit.line))
    facts.setdefault("backward_line", str(evidence.line))

    def pick(part: str) -> str:
        key = f"{hit.cause}.{part}_{hit.variant}"
        return text(key if hit.variant and has(key, lang) else f"{hit.cause}.{part}", lang, **facts)

    what, why = pick("what"), pick("why")
    try:
        fixes = propose(hit, evidence, lang)
    except Exception:
        fixes = ()
    return Diagnosis(cause=hit.cause, line=hit.line, title=pick("title"), explanation=f"{what}\n{why}",
                     fixes=fixes, what=what, why=why, related=hit.related, score=hit.score,
                     hint=text(f"{hit.cause}.hint", lang, **facts) if has(f"{hit.cause}.hint", lang) else "")


def trace_sentence(evidence: Evidence, lang: str) -> str:
    """The recorded story of the stale part: who made it, who freed it, who hit it again."""
    failure = evidence.failure
    if not failure or not failure.graph or not failure.freed_by or evidence.failing_call is None:
        return ""
    graph, calls = failure.graph, {c.index: c for c in evidence.capture.backwards}
    wanted = set(graph.failed_at or graph.stale)  # built once: per node it was O(n^2), 0.9 s at 10k nodes
    stale = [n for n in graph.nodes if n.id in wanted]
    freed = calls.get(dict(failure.freed_by).get(stale[0].id)) if stale else None
    if freed is None:
        return ""
    here = evidence.failing_call
    made = [n for n in stale if n.line is not None]
    if made:
        first = min(made, key=lambda n: n.id)
        facts = dict(created_line=first.line, created_iteration=first.iteration, freed_line=freed.line,
                     freed_iteration=freed.iteration, line=here.line, iteration=here.iteration)
        through = _reuse_line(graph)
        if through is not None:
            return text("trace.stale_through", lang, through_line=through, **facts)
        return text("trace.stale", lang, **facts)
    return text("trace.stale_no_provenance", lang, line=here.line, count=len(stale), freed_line=freed.line)


def _reuse_line(graph) -> int | None:
    """The line of the newest current node that points into the stale part: where the old
    tensor entered this iteration's graph."""
    stale = set(graph.stale)
    by_id = {n.id: n for n in graph.nodes}
    entries = [by_id[parent] for parent, child in graph.edges
               if child in stale and parent not in stale and parent in by_id and by_id[parent].line]
    return max(entries, key=lambda n: n.id).line if entries else None


def explain(hits: list[Hit], evidence: Evidence, lang: str) -> tuple[Diagnosis, ...]:
    """One Diagnosis per cause, best first."""
    seen, out = set(), []
    for hit in hits:
        if hit.cause not in seen:
            seen.add(hit.cause)
            out.append(diagnosis(hit, evidence, lang))
    return tuple(out)


def error_line(capture: Capture) -> str | None:
    failure = capture.failure
    return f"{failure.error_type}: {failure.message}" if failure else None
