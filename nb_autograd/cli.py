"""nb-autograd diagnose|fix PATH: run a script (or a notebook) the way a notebook cell runs,
explain its autograd error, patch it.

Exit status, with and without --json: 0 the code ran clean and nothing was found; 1 it raised
(an autograd error or any other) or a silent problem was found; 2 bad input (one line on stderr).
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys

EXIT_CLEAN = 0
EXIT_FOUND = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """One line for stderr; exit status 2."""


def _fail(message: str):
    print(f"nb-autograd: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def _read_text(path: str, what: str) -> str:
    if not os.path.exists(path):
        raise BadInput(f"{path}: no such file")
    if os.path.isdir(path):
        raise BadInput(f"{path}: is a directory, not a {what}")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise BadInput(f"{path}: {exc.strerror}") from None


def _read(path: str) -> str:
    """The script's text, or SystemExit(2) with one clear line."""
    try:
        source = _read_text(path, "Python file")
    except BadInput as exc:
        _fail(str(exc))
    if "\0" in source:
        _fail(f"{path}: binary file, not Python source")
    try:
        compile(source, path, "exec")
    except SyntaxError as exc:
        _fail(f"{path}:{exc.lineno}: does not parse: {exc.msg}")
    except ValueError as exc:
        _fail(f"{path}: does not parse: {exc}")
    return source


def _report(path: str, lang: str, watch: bool, quiet_stdout: bool):
    from .pipeline import diagnose

    source = _read(path)
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    redirect = contextlib.redirect_stdout(sys.stderr) if quiet_stdout else contextlib.nullcontext()
    try:
        with redirect:
            return diagnose(source, lang=lang, watch=watch, filename=os.path.abspath(path))
    finally:
        if sys.path and sys.path[0] == folder:
            sys.path.pop(0)


def _status(report) -> int:
    return EXIT_FOUND if report.error or report.diagnoses or report.findings else EXIT_CLEAN


def _failure(report):
    capture = report.capture
    return capture.failure if capture is not None else None


def _ours(report) -> bool:
    from .evidence.symptoms import is_autograd_error

    failure = _failure(report)
    return failure is not None and is_autograd_error(failure.error_type, failure.message)


def _traceback(report) -> str:
    """The script's traceback as far as its user frames go (library frames are left out)."""
    import linecache

    failure = _failure(report)
    if failure is None:
        return report.error or ""
    out = ["Traceback (most recent call last; library frames left out):"]
    for filename, line in failure.stack:
        shown = os.path.relpath(filename) if os.path.isabs(filename) else filename
        out.append(f'  File "{shown}", line {line}')
        text = linecache.getline(filename, line).strip()
        if text:
            out.append(f"    {text}")
    out.append(report.error)
    return "\n".join(out)


def _not_ours_line(report) -> str:
    from .i18n import text

    failure = _failure(report)
    return text("ui.not_ours", report.lang, error_type=failure.error_type if failure else "this")


def cmd_diagnose(args) -> int:
    if args.path.endswith(".ipynb"):
        return diagnose_notebook(args.path, args.json, args.lang)
    report = _report(args.path, args.lang, not args.no_watch, quiet_stdout=args.json)
    ours = _ours(report)
    if args.json:
        if report.error:
            print(_traceback(report), file=sys.stderr)
            if not ours:
                print(_not_ours_line(report), file=sys.stderr)
        print(report.to_json(indent=2))
        return _status(report)
    from .view.text import render

    if report.error:
        print(_traceback(report))
        print(render(report, hint="ui.apply_hint_cli") if ours else _not_ours_line(report))
    else:
        print("no error")
        if report.findings:
            print(render(report, hint="ui.apply_hint_cli"))
    return _status(report)


def _rel(path: str) -> str:
    return os.path.relpath(path).replace(os.sep, "/")


def file_diff(old: str, new: str, path: str) -> str:
    """A unified diff `git apply` and `patch -p1` take: `a/<path>`/`b/<path>` headers (path
    relative to the working directory) and the no-newline marker where a file lacks one."""
    rel = _rel(path)
    out = []
    for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def cmd_fix(args) -> int:
    from dataclasses import replace

    from .fixes.apply import pick_fix

    if args.path.endswith(".ipynb"):
        _fail(f"{args.path}: fix takes a Python file; in a notebook use %gradfix")
    report = _report(args.path, args.lang, True, quiet_stdout=True)
    status = _status(report)
    if report.top is None and report.findings:  # a silent problem: its fixes are the findings'
        report = replace(report, diagnoses=report.findings)
    if report.error and not _ours(report):
        print(_not_ours_line(report), file=sys.stderr)
        return status
    fix = pick_fix(report, args.index)
    if isinstance(fix, str):
        print(fix, file=sys.stderr)
        return status
    edits = [(fix.target.file or os.path.abspath(args.path), fix.patched_source),
             *((e.target.file or os.path.abspath(args.path), e.patched_source) for e in fix.also)]
    for target, patched in edits:  # a moved statement changes every file it leaves or enters: all or none
        original = _read(args.path) if os.path.abspath(target) == os.path.abspath(args.path) \
            else _read_text(target, "Python file")
        print(file_diff(original, patched, target), end="")
    if args.write:
        for target, patched in edits:
            os.replace(target, target + ".orig")
            with open(target, "w", encoding="utf-8") as f:
                f.write(patched)
            print(f"nb-autograd: wrote {_rel(target)} (original kept as {_rel(target)}.orig)", file=sys.stderr)
    return status


# notebooks ------------------------------------------------------------------------------

def diagnose_notebook(path: str, as_json: bool, lang: str) -> int:
    from .kernel import NoKernel
    from .notebook_run import KernelSetupFailed, NotANotebook, parse_notebook, run_notebook

    try:
        cells = parse_notebook(_read_text(path, "notebook"), path)
    except (BadInput, NotANotebook) as exc:
        _fail(str(exc))
    try:
        run = run_notebook(path, cells, lang)
    except NoKernel as exc:
        _fail(f"no Jupyter kernel could be started ({exc})")
    except KernelSetupFailed as exc:
        _fail(f"the kernel could not load nb_autograd ({exc})")
    if run.timed_out:
        print(f"nb-autograd: {run.timed_out}", file=sys.stderr)
        return EXIT_FOUND
    if run.failed is None:
        data = run.report or {"error": None, "diagnoses": []}
        print(json.dumps(data, ensure_ascii=False, indent=2) if as_json else "no error")
        if run.report and not as_json:
            print(run.explanation)
        return EXIT_FOUND if run.report else EXIT_CLEAN
    ename, evalue = run.error
    heading = f"nb-autograd: {os.path.basename(path)}, cell {run.failed.index} (id {run.failed.cell_id}) raised"
    if as_json:
        data = run.report or {"error": f"{ename}: {evalue}", "diagnoses": []}
        print(heading, file=sys.stderr)
        print(run.traceback, file=sys.stderr)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(heading)
        print(run.traceback)
        if run.explanation:
            print(run.explanation)
        elif not run.ours:
            from .i18n import text
            print(text("ui.not_ours", lang, error_type=ename))
    return EXIT_FOUND


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nb-autograd", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diagnose", help="run PATH (a script or a .ipynb notebook) and explain its autograd error")
    d.add_argument("path")
    d.add_argument("--json", action="store_true", help="machine-readable output")
    d.add_argument("--lang", choices=("en", "zh"), default="en")
    d.add_argument("--no-watch", action="store_true", help="skip the provenance watcher")
    d.set_defaults(run=cmd_diagnose)
    f = sub.add_parser("fix", help="print the first fix for PATH as a diff (git apply / patch -p1)")
    f.add_argument("path")
    f.add_argument("--index", type=int, default=1, help="which fix (1 = the best)")
    f.add_argument("--write", action="store_true", help="write the patched file, keep PATH.orig")
    f.add_argument("--lang", choices=("en", "zh"), default="en")
    f.set_defaults(run=cmd_fix)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
