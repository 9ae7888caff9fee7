"""`python -m nb_autograd [--lang L] [--report-dir DIR] [--watch] SCRIPT [ARGS...]` runs a script
as `python SCRIPT ARGS` would, explaining its autograd error (also per rank under torchrun:
`torchrun --nproc_per_node=N -m nb_autograd SCRIPT`). `python -m nb_autograd diagnose|fix PATH`
is the `nb-autograd` command."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str]) -> int:
    if argv[:1] and argv[0] in {"diagnose", "fix"}:
        from .cli import main as cli

        return cli(argv)
    parser = argparse.ArgumentParser(prog="python -m nb_autograd", description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("en", "zh"), default=None, help="language of the explanation")
    parser.add_argument("--report-dir", default=None, help="write DIR/report-rank{RANK}.json for a failing rank")
    parser.add_argument("--watch", action="store_true", help="record which line made each node (slower)")
    parser.add_argument("script", help="the script to run (or `diagnose`/`fix` for the nb-autograd command)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    args = parser.parse_args(argv)
    from .script_run import run_script

    try:
        return run_script(args.script, args.args, lang=args.lang, report_dir=args.report_dir, watch=args.watch)
    except OSError as exc:
        print(f"python -m nb_autograd: can't open file {args.script!r}: {exc.strerror}", file=sys.stderr)
        return 2
    except SyntaxError:
        import traceback

        traceback.print_exc(limit=0)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
