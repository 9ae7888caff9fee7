"""What the extension costs a real kernel: `%load_ext nb_autograd` after `import torch`, the
first failing cell (after the kernel sat idle a moment, as while a user types) and a later
one, each against the same cells in a plain kernel. Fresh kernels per round, the plain and
the extension kernel interleaved; medians and spread over the rounds.

    python benchmarks/kernel_cost.py [--rounds 5] [--idle 3] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from nb_autograd.kernel import Kernel

SETUP = "import torch\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(8, 1)\n"
FAILING = "x = torch.randn(4, 8)\nloss = model(x).pow(2).mean()\nloss.backward()\nloss.backward()\n"


def one_round(idle: float) -> dict:
    out = {}
    for kind in ("plain", "extension"):
        with Kernel() as kernel:
            kernel.run(SETUP)
            load = kernel.run("%load_ext nb_autograd").seconds if kind == "extension" else 0.0
            time.sleep(idle)  # the user reads and types; the extension may warm up meanwhile
            first = kernel.run(FAILING).seconds
            time.sleep(idle)
            later = kernel.run(FAILING).seconds
        out[kind] = {"load": load, "first": first, "later": later}
    return {"load_s": out["extension"]["load"],
            "first_error_extra_s": out["extension"]["first"] - out["plain"]["first"],
            "later_error_extra_s": out["extension"]["later"] - out["plain"]["later"],
            "plain_first_s": out["plain"]["first"], "plain_later_s": out["plain"]["later"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--idle", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rounds = [one_round(args.idle) for _ in range(args.rounds)]
    keys = ("load_s", "first_error_extra_s", "later_error_extra_s", "plain_first_s", "plain_later_s")
    summary = {k: {"median": statistics.median(r[k] for r in rounds), "min": min(r[k] for r in rounds),
                   "max": max(r[k] for r in rounds)} for k in keys}
    if args.json:
        print(json.dumps({"rounds": args.rounds, "summary": summary, "each": rounds}))
        return 0
    print(f"{'measure':<24}{'median (s)':>12}{'min':>9}{'max':>9}   ({args.rounds} rounds, fresh kernels, "
          f"{args.idle:g} s idle before each error)")
    for k in keys:
        s = summary[k]
        print(f"{k:<24}{s['median']:>12.3f}{s['min']:>9.3f}{s['max']:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
