"""Run every fresh evaluation case and check it behaves as labelled.

Usage: python tests/fresh/check_cases.py [-j N] [substring ...]

* family_a/<name>.py must fail with "Trying to backward through the graph a second time".
* family_b/<name>.py must fail with the error message of its "# cause:".
  Cases marked "# needs: cuda" are skipped when CUDA is unavailable.
* clean/<name>.py and every <name>.fixed.py must exit 0.
* Every family_a / family_b case must have a well-formed header
  (# cause / # line / # why as its first three lines, a known cause id of the
  right family, a line number inside the file) and a <name>.fixed.py next to it.

No diagnosis logic lives here: this only checks that the cases are what they claim.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 30

FAMILY_A = {
    "double_backward",
    "accumulated_loss_backward_in_loop",
    "tensor_reused_across_iterations",
    "recurrent_state_not_detached",
    "computed_before_loop",
    "shared_subgraph_multiple_backward",
}
FAMILY_A_MSG = "Trying to backward through the graph a second time"
FAMILY_B_MSG = {
    "inplace_modified_saved_tensor": "modified by an inplace operation",
    "no_grad_fn": "does not require grad and does not have a grad_fn",
    "non_scalar_backward": "grad can be implicitly created only for scalar outputs",
    # also matches "a view of a leaf Variable that requires grad ..."
    "leaf_inplace": "leaf Variable that requires grad is being used in an in-place operation",
    "numpy_on_grad_tensor": "Can't call numpy() on Tensor that requires grad",
    "device_mismatch": "Expected all tensors to be on the same device",
}


def cuda_available():
    try:
        import torch
        return bool(torch.cuda.is_available())
    except Exception:
        return False


def parse_header(path):
    with open(path) as fh:
        lines = fh.read().split("\n")
    problems = []
    info = {"needs": None}
    pats = [("cause", r"^# cause: (\S+)$"), ("line", r"^# line: (\d+)$"), ("why", r"^# why: (.+)$")]
    for i, (key, pat) in enumerate(pats):
        m = re.match(pat, lines[i]) if i < len(lines) else None
        if not m:
            problems.append(f"header line {i + 1} should match {pat!r}")
        else:
            info[key] = m.group(1)
    for l in lines[:6]:
        m = re.match(r"^# needs: (\S+)$", l)
        if m:
            info["needs"] = m.group(1)
    if "line" in info:
        n = int(info["line"])
        if not (4 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].lstrip().startswith("#"):
            problems.append(f"line {n} is not a code line of the file")
    return info, problems


def needs_of(path):
    with open(path) as fh:
        head = [next(fh, "") for _ in range(6)]
    for l in head:
        m = re.match(r"^# needs: (\S+)$", l.rstrip("\n"))
        if m:
            return m.group(1)
    return None


def run(path):
    with tempfile.TemporaryDirectory() as tmp:
        try:
            p = subprocess.run([sys.executable, path], cwd=tmp, capture_output=True, text=True,
                               timeout=TIMEOUT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            return p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            return None, "TIMEOUT"


def collect(filters):
    jobs = []  # (kind, path)
    for family in ("family_a", "family_b", "clean"):
        d = os.path.join(HERE, family)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".py"):
                continue
            path = os.path.join(d, name)
            rel = os.path.relpath(path, HERE)
            if filters and not any(f in rel for f in filters):
                continue
            if name.endswith(".fixed.py") or family == "clean":
                jobs.append(("must_pass", path))
            else:
                jobs.append((family, path))
    return jobs


def check(job, has_cuda):
    kind, path = job
    rel = os.path.relpath(path, HERE)
    problems = []
    cause = None
    if kind in ("family_a", "family_b"):
        info, problems = parse_header(path)
        cause = info.get("cause")
        if cause is not None:
            if kind == "family_a" and cause not in FAMILY_A:
                problems.append(f"cause {cause!r} is not a family-A cause")
            if kind == "family_b" and cause not in FAMILY_B_MSG:
                problems.append(f"cause {cause!r} is not a family-B cause")
        if not os.path.exists(path[:-3] + ".fixed.py"):
            problems.append("missing .fixed.py")
        needs = info.get("needs")
    else:
        needs = needs_of(path)
    if needs == "cuda" and not has_cuda:
        return rel, kind, cause, "SKIP", problems
    rc, out = run(path)
    if rc is None:
        problems.append(f"timed out after {TIMEOUT}s")
    elif kind == "must_pass":
        if rc != 0:
            problems.append(f"exit {rc}, expected 0: " + out.strip().splitlines()[-1][:200] if out.strip() else f"exit {rc}")
    else:
        expected = FAMILY_A_MSG if kind == "family_a" else FAMILY_B_MSG.get(cause, "<unknown cause>")
        if rc == 0:
            problems.append("ran without error, expected: " + expected)
        elif expected not in out:
            last = out.strip().splitlines()[-1][:200] if out.strip() else ""
            problems.append(f"wrong error (expected {expected!r}): {last}")
    return rel, kind, cause, ("FAIL" if problems else "ok"), problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=2, help="parallel subprocesses (default 2)")
    ap.add_argument("filters", nargs="*", help="only run files whose path contains one of these")
    args = ap.parse_args()
    has_cuda = cuda_available()
    jobs = collect(args.filters)
    with ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        results = list(ex.map(lambda j: check(j, has_cuda), jobs))

    n_fail = 0
    per_cause = Counter()
    status_count = Counter()
    for rel, kind, cause, status, problems in results:
        status_count[status] += 1
        if cause:
            per_cause[cause] += 1
        if status != "ok":
            print(f"{status:4} {rel}")
            for p in problems:
                print(f"       - {p}")
        if status == "FAIL":
            n_fail += 1
    n_clean = sum(1 for rel, kind, *_ in results if rel.startswith("clean" + os.sep))
    n_fixed = sum(1 for rel, *_ in results if rel.endswith(".fixed.py"))
    print()
    print("cases per cause:")
    for c in sorted(FAMILY_A) + sorted(FAMILY_B_MSG):
        print(f"  {c:36} {per_cause.get(c, 0)}")
    print(f"  {'clean programs':36} {n_clean}")
    print(f"  {'fix files':36} {n_fixed}")
    print(f"\n{len(results)} files: {status_count['ok']} ok, {status_count['FAIL']} failed, "
          f"{status_count['SKIP']} skipped (cuda available: {has_cuda})")
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
