"""Hit + catalog -> Diagnosis (title, what, why, where, fixes), in one language."""
from __future__ import annotations

import os
from dataclasses import replace

from .capture.records import Capture, Place
from .evidence import Evidence
from .fixes.plan import build
from .fixes.cst import unified_diff
from .i18n import has, text
from .report import Diagnosis, Edit, Fix
from .rules.base import Hit
from .rules.registry import rule_for


def place_words(place: Place, lang: str) -> str:
    """"In [3], line 6" / "trainlib.py, line 9" (or without the line)."""
    if place.file:
        unit = text("where.file", lang, file=os.path.basename(place.file))
    elif place.cell is not None:
        unit = text("where.cell", lang, cell=place.cell)
    else:
        unit = text("where.this_cell", lang)
    return unit if place.line is None else text("where.line", lang, unit=unit, line=place.line)


def made_place(evidence: Evidence, key: str, line: int) -> Place:
    """A (filename, line) the watcher saw, as a place: an earlier cell's run or a user file."""
    source = next((s for s in reversed(evidence.capture.sources) if s.key == key), None)
    if source is not None and source.file is None:
        return Place(source.cell, source.cell_id, None, line)
    return Place(None, None, key, line)


def _line_facts(facts: dict, evidence: Evidence, lang: str) -> dict:
    """In a joined program a bare line number means nothing to the user: say whose line. A
    re-run cell's runs share one piece of the program, so the line of a backward call (the
    failing one, `line`; one that freed the graph) is named by the run that made the call."""
    if not evidence.joined:
        return facts
    runs = {s.unit: s for s in evidence.capture.sources if s.file is None}
    called = {str(c.line): c.unit for c in evidence.freeing_calls}  # the latest run of a line wins
    here = evidence.failing_call
    out = dict(facts)
    for key, value in facts.items():
        if key.endswith("line") and str(value).isdigit():
            place = evidence.place(int(value))
            run = runs.get(here.unit if key == "line" and here is not None else called.get(str(value)))
            piece = evidence.program.piece_at(int(value))
            if run is not None and piece is not None and run.unit in piece.units:
                place = replace(place, cell=run.cell, cell_id=run.cell_id)
            if place.line is not None:
                unit = place_words(replace(place, line=None), lang)
                out[key] = text("where.fact", lang, line=place.line, unit=unit)
    return out


def _phrases(facts: dict, lang: str) -> dict:
    """A fact a rule gives as a catalog phrase (`@section.key`, where no value from the runtime
    exists) is said in the report's language."""
    return {k: text(v[1:], lang) if isinstance(v, str) and v.startswith("@") and has(v[1:], "en") else v
            for k, v in facts.items()}


def _placed(fix: Fix, evidence: Evidence, root: int | None) -> Fix | None:
    """The fix cut into the cells or files it changes: its target (the failing one when it
    changes it, else the root's) and the others it must change too (a moved statement);
    None when the patch cannot be put back into the pieces."""
    program = evidence.program
    if not evidence.joined:
        return replace(fix, target=evidence.unit_place())
    parts = program.split(fix.patched_source)
    if not parts:
        return None

    def edit(i: int) -> Edit:
        source = program.pieces[i].source
        return Edit(evidence.unit_place(i), parts[i] + "\n", unified_diff(source.raw or source.text, parts[i] + "\n"))

    target = edit(program.target(parts, root))
    also = tuple(edit(i) for i in sorted(parts) if evidence.unit_place(i) != target.target)
    edits = [target, *also]
    ids = [e.target.cell_id or e.target.file or e.target.cell for e in edits]
    if len(set(ids)) < len(ids):  # two runs of one cell changed two ways: no one text for it
        return None
    return replace(fix, patched_source=target.patched_source, diff=target.diff, target=target.target, also=also)


def propose(hit: Hit, evidence: Evidence, lang: str) -> tuple[Fix, ...]:
    """The rule's ranked plans made into checked fixes; () when none is safe."""
    make = getattr(rule_for(hit.cause), "plans", None)
    return build(evidence.capture.source, lang, make(hit, evidence)) if make else ()


def diagnosis(hit: Hit, evidence: Evidence, lang: str) -> Diagnosis:
    facts = dict(hit.facts)
    facts.setdefault("line", str(hit.line))
    facts.setdefault("backward_line", str(evidence.line))
    facts = _line_facts(facts, evidence, lang)
    facts = _phrases(facts, lang)

    def pick(part: str) -> str:
        key = f"{hit.cause}.{part}_{hit.variant}"
        return text(key if hit.variant and has(key, lang) else f"{hit.cause}.{part}", lang, **facts)

    what, why = pick("what"), pick("why")
    try:
        fixes = tuple(f for f in (_placed(f, evidence, hit.line) for f in propose(hit, evidence, lang)) if f)
    except Exception:  # a fix that cannot be made is left out; the explanation stands
        fixes = ()
    place, related, context = evidence.place(hit.line), hit.related, ""
    if evidence.joined or place.cell is not None:
        what = text("where.root", lang, place=place_words(place, lang)) + " " + what
    piece = evidence.program.piece_at(hit.line) if evidence.joined else None
    if piece is not None:  # the lines shown are the root's cell or file, in its own numbers
        context = piece.source.text
        related = tuple((role, line - piece.first + 1) for role, line in hit.related
                        if isinstance(line, int) and piece.first <= line < piece.first + piece.size)
    return Diagnosis(cause=hit.cause, line=place.line if evidence.joined else hit.line, title=pick("title"),
                     explanation=f"{what}\n{why}", fixes=fixes, what=what, why=why, related=related,
                     score=hit.score, place=place, context=context,
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
            story = text("trace.stale_through", lang, **_line_facts(dict(facts, through_line=through), evidence, lang))
        else:
            story = text("trace.stale", lang, **_line_facts(facts, evidence, lang))
        inside = next((n.made_at for n in sorted(made, key=lambda n: n.id) if n.made_at), None)
        return story if inside is None else story + " " + text("trace.made_inside", lang,
                                                                place=place_words(made_place(evidence, *inside), lang))
    facts = dict(line=here.line, freed_line=freed.line)
    return text("trace.stale_no_provenance", lang, count=len(stale), **_line_facts(facts, evidence, lang))


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


def unrecognised(evidence: Evidence, lang: str) -> str:
    """Never a dead end: what the runtime saw when no rule matched, and general advice."""
    failure = evidence.failure
    if failure is None or evidence.symptom is None:
        return ""
    out = [text("unrecognised.failing", lang, place=place_words(evidence.place(evidence.line), lang))]
    if evidence.symptom.id == "second_backward":
        freeing = evidence.freeing_calls
        if freeing:
            out.append(text("unrecognised.freed", lang, count=len(failure.freed_by),
                            freed=place_words(evidence.place(freeing[0].line), lang)))
        else:
            out.append(text("unrecognised.no_freed", lang))
        out.append(text("unrecognised.advice_second_backward", lang))
    else:
        out.append(text("unrecognised.advice", lang))
    return " ".join(out)
