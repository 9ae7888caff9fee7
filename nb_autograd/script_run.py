"""`python -m nb_autograd [--lang L] [--report-dir DIR] [--watch] SCRIPT [ARGS...]`: run a
script exactly as `python SCRIPT ARGS` would (sys.argv, `__main__`, sys.path[0], exit status,
the native traceback), and after an autograd error print the explanation to stderr.

Under torchrun every rank runs this; each failing rank explains once, prefixed with its rank.
Ranks compare what they found through small files (one per rank, in a temporary folder
named after the launch: torchrun's run id, master port and agent process): rank 0 explains in full, another rank says in
one line that it found the same, unless its diagnosis differs or rank 0 has none to compare
(it waits a few seconds at most: a rank may have died)."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
import types

WAIT_FOR_RANK0 = 5.0  # seconds


def rank() -> int:
    try:
        return int(os.environ.get("RANK", "0"))
    except ValueError:
        return 0


def run_script(path: str, args: list[str], *, lang: str | None = None, report_dir: str | None = None,
               watch: bool = False) -> int:
    from .capture.marks import compile_unit
    from .capture.run import Run, native_traceback, register_source

    script = os.path.abspath(path)
    with open(script, encoding="utf-8") as f:
        source = f.read()
    code = compile_unit(source, script, marked=watch)
    register_source(script, source)
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=script, __builtins__=__builtins__, __cached__=None)
    saved = sys.argv, sys.path[0] if sys.path else None, sys.modules.get("__main__")
    sys.argv, sys.modules["__main__"] = [path, *args], main
    if sys.path:
        sys.path[0] = os.path.dirname(script)
    run = Run(script, source, main.__dict__, watch=watch, top_code=code)
    try:
        try:
            with run:
                exec(code, main.__dict__)
        except SystemExit:
            raise
        except BaseException as exc:
            traceback.print_exception(type(exc), exc, native_traceback(exc.__traceback__, start=script))
            sys.stderr.flush()
            if isinstance(exc, KeyboardInterrupt):
                return 130
            _explain(run.capture, exc, lang, report_dir)
            return 1
        return 0
    finally:
        run.close()
        sys.argv = saved[0]
        if saved[1] is not None and sys.path:
            sys.path[0] = saved[1]


def _explain(capture, exc: BaseException, lang: str | None, report_dir: str | None) -> None:
    """Never raises: our failure is one line, the user's traceback is already printed."""
    try:
        from .evidence.symptoms import is_autograd_error
        from .pipeline import analyze
        from .view.text import render

        if capture is None or not is_autograd_error(exc):
            return
        report = analyze(capture, lang or "en")
        me = rank()
        if report_dir:
            os.makedirs(report_dir, exist_ok=True)
            with open(os.path.join(report_dir, f"report-rank{me}.json"), "w", encoding="utf-8") as f:
                json.dump(report.to_dict(), f, ensure_ascii=False, indent=1)
        said = _same_as_rank0(report, me)
        prefix = f"[rank {me}] " if "RANK" in os.environ else ""
        text = said if said else render(report, hint="ui.apply_hint_cli")
        print("\n".join(prefix + line for line in text.splitlines()), file=sys.stderr)
    except Exception as error:  # noqa: BLE001
        print(f"nb_autograd: could not explain this error ({type(error).__name__}: {error})", file=sys.stderr)


def _signature(report) -> str:
    top = report.top
    if top is None:
        return "unrecognised"
    where = top.place.file or (f"In [{top.place.cell}]" if top.place.cell is not None else "")
    return f"{top.cause} at {os.path.basename(where) + ', ' if where else ''}line {top.line}"


def _same_as_rank0(report, me: int) -> str | None:
    """For a rank other than 0 whose diagnosis is rank 0's: the one line to print instead."""
    if "RANK" not in os.environ:
        return None
    run = f"{os.environ.get('TORCHELASTIC_RUN_ID', '')}-{os.environ.get('MASTER_PORT', '')}-{os.getppid()}"
    folder = os.path.join(tempfile.gettempdir(), f"nb_autograd-ranks-{run}")  # the ranks of this launch
    os.makedirs(folder, exist_ok=True)
    mine = _signature(report)
    part = os.path.join(folder, f"signature-rank{me}.txt")
    with open(part + ".tmp", "w", encoding="utf-8") as f:
        f.write(mine)
    os.replace(part + ".tmp", part)
    if me == 0:
        return None
    theirs, end = None, time.monotonic() + WAIT_FOR_RANK0
    while theirs is None and time.monotonic() < end:
        try:
            with open(os.path.join(folder, "signature-rank0.txt"), encoding="utf-8") as f:
                theirs = f.read()
        except OSError:
            time.sleep(0.1)
    if theirs != mine:
        return None
    from .i18n import text

    return text("ui.same_as_rank0", report.lang, signature=mine)
