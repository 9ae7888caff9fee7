"""nb-autograd diagnose|fix PATH: run a script the way a notebook cell runs, explain, patch."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys

EXIT_BAD_INPUT = 2


def _read(path: str) -> str:
    """The file's text, or SystemExit(2) with one clear line."""
    if not os.path.exists(path):
        _fail(f"{path}: no such file")
    if os.path.isdir(path):
        _fail(f"{path}: is a directory, not a Python file")
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except UnicodeDecodeError:
        _fail(f"{path}: not UTF-8 text")
    except OSError as exc:
        _fail(f"{path}: {exc.strerror}")
    try:
        compile(source, path, "exec")
    except SyntaxError as exc:
        _fail(f"{path}:{exc.lineno}: does not parse: {exc.msg}")
    except ValueError as exc:
        _fail(f"{path}: does not parse: {exc}")
    return source


def _fail(message: str):
    print(f"nb-autograd: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


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


def cmd_diagnose(args) -> int:
    report = _report(args.path, args.lang, not args.no_watch, quiet_stdout=args.json)
    if args.json:
        print(report.to_json(indent=2))
    else:
        from .view.text import render

        print(report.error or "no error")
        if report.error or report.findings:
            print(render(report))
    return 0


def cmd_fix(args) -> int:
    from .fixes.apply import pick_fix

    report = _report(args.path, args.lang, True, quiet_stdout=True)
    fix = pick_fix(report, args.index)
    if isinstance(fix, str):
        print(fix, file=sys.stderr)
        return 1
    print(fix.diff, end="" if fix.diff.endswith("\n") else "\n")
    if args.write:
        os.replace(args.path, args.path + ".orig")
        with open(args.path, "w", encoding="utf-8") as f:
            f.write(fix.patched_source)
        print(f"nb-autograd: wrote {args.path} (original kept as {args.path}.orig)", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nb-autograd", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diagnose", help="run PATH and explain its autograd error")
    d.add_argument("path")
    d.add_argument("--json", action="store_true", help="machine-readable output")
    d.add_argument("--lang", choices=("en", "zh"), default="en")
    d.add_argument("--no-watch", action="store_true", help="skip the provenance watcher")
    d.set_defaults(run=cmd_diagnose)
    f = sub.add_parser("fix", help="print the first fix for PATH as a diff")
    f.add_argument("path")
    f.add_argument("--index", type=int, default=1, help="which fix (1 = the best)")
    f.add_argument("--write", action="store_true", help="write the patched file, keep PATH.orig")
    f.add_argument("--lang", choices=("en", "zh"), default="en")
    f.set_defaults(run=cmd_fix)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    raise SystemExit(main())
