"""capture -> evidence -> rules -> explanation: the one place the stages are chained."""
from __future__ import annotations

from .capture.records import Capture
from .evidence import build
from .evidence.symptoms import is_autograd_error
from .explain import error_line, explain, trace_sentence, unrecognised
from .i18n import check_language, current_language
from .report import Report
from .rules.registry import run_rules


def analyze(capture: Capture, lang: str | None = None, cell_id: str | None = None) -> Report:
    lang = check_language(lang or current_language())
    failure = capture.failure
    if failure is not None and not is_autograd_error(failure.error_type, failure.message):
        # not ours: the error line and nothing else (no diagnosis, no "unrecognised pattern")
        return Report(error=error_line(capture), source=capture.source, lang=lang, watched=capture.watched,
                      cell_id=cell_id, capture=capture)
    evidence = build(capture)
    hits = run_rules(evidence)
    diagnoses = explain(hits, evidence, lang)
    findings = ()
    if evidence.symptom is not None and evidence.symptom.id == "silent":  # no error: findings
        diagnoses, findings = (), diagnoses
    return Report(error=error_line(capture), diagnoses=diagnoses, source=evidence.capture.source, lang=lang,
                  graph=capture.failure.graph if capture.failure else None,
                  trace=trace_sentence(evidence, lang), watched=capture.watched, cell_id=cell_id,
                  findings=findings, capture=capture,
                  unrecognised=unrecognised(evidence, lang) if capture.failure and not diagnoses else "")


def diagnose(source: str, *, lang: str = "en", watch: bool = True, filename: str = "<nb_autograd>") -> Report:
    """Run `source` the way a notebook cell runs and explain any autograd error it raises.

    Executes the code. A SyntaxError in `source` is raised, not diagnosed.
    """
    from .capture.run import run_source

    check_language(lang)
    return analyze(run_source(source, filename=filename, watch=watch), lang)
