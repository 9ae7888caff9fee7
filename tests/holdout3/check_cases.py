"""Sanity check for the holdout3 evaluation batch.

Runs every case in its own subprocess (timeout 30 s):
  * family_a/<name>.py must fail with "Trying to backward through the graph a second time"
  * family_b/<name>.py must fail with the message of the cause named in its header
  * clean/*.py and every <name>.fixed.py must exit 0
Also validates the 3-line header and, for causes whose root-cause line is the
failing call itself, that the traceback points at the declared line.
Exit status is non-zero if anything fails.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 30

FAMILY_A = {
    "double_backward", "accumulated_loss_backward_in_loop", "tensor_reused_across_iterations",
    "recurrent_state_not_detached", "computed_before_loop", "shared_subgraph_multiple_backward",
}
SECOND_BACKWARD = "Trying to backward through the graph a second time"
FAMILY_B = {
    "inplace_modified_saved_tensor": "modified by an inplace operation",
    "no_grad_fn": "does not require grad and does not have a grad_fn",
    "non_scalar_backward": "grad can be implicitly created only for scalar outputs",
    "leaf_inplace": "a leaf Variable that requires grad is being used in an in-place operation",
    "numpy_on_grad_tensor": "Can't call numpy() on Tensor that requires grad",
}
# causes whose declared line is the statement that raises
RAISES_AT_ROOT = {"double_backward", "shared_subgraph_multiple_backward", "non_scalar_backward",
                  "leaf_inplace", "numpy_on_grad_tensor"}
EXPECTED_COUNTS = {"family_a": 24, "family_b": 10, "clean": 6}
HEADER_RE = [re.compile(r"^# cause: (\S+)$"), re.compile(r"^# line: (\d+)$"), re.compile(r"^# why: \S.*$")]


def run(path):
    try:
        p = subprocess.run([sys.executable, path], capture_output=True, text=True,
                           timeout=TIMEOUT, cwd=os.path.dirname(path))
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, "TIMEOUT"


def parse_header(path):
    lines = open(path).read().split("\n")
    ms = [r.match(l) for r, l in zip(HEADER_RE, lines[:3])]
    if not all(ms):
        return None, None, "bad header"
    cause, line = ms[0].group(1), int(ms[1].group(1))
    if not (3 < line <= len(lines)) or not lines[line - 1].strip() or lines[line - 1].lstrip().startswith("#"):
        return cause, line, f"line {line} is out of range, blank or a comment"
    return cause, line, None


def last_frame_line(output, path):
    hits = re.findall(r'File "([^"]+)", line (\d+)', output)
    hits = [int(n) for f, n in hits if os.path.abspath(f) == os.path.abspath(path)]
    return hits[-1] if hits else None


def check(task):
    kind, path = task
    rel = os.path.relpath(path, HERE)
    if kind == "ok":
        rc, out = run(path)
        if rc != 0:
            return rel, f"expected exit 0, got {rc}: {out.strip().splitlines()[-1:] if out.strip() else ''}"
        return rel, None
    fam = kind
    cause, line, err = parse_header(path)
    if err:
        return rel, err
    if fam == "family_a" and cause not in FAMILY_A:
        return rel, f"cause {cause!r} is not a family-A cause"
    if fam == "family_b" and cause not in FAMILY_B:
        return rel, f"cause {cause!r} is not a family-B cause"
    if not os.path.exists(path[:-3] + ".fixed.py"):
        return rel, "missing .fixed.py"
    expected = SECOND_BACKWARD if fam == "family_a" else FAMILY_B[cause]
    rc, out = run(path)
    if rc in (0, None) or expected not in out:
        tail = out.strip().splitlines()[-1:] if out.strip() else ""
        return rel, f"expected failure with {expected!r}, got rc={rc}: {tail}"
    if cause in RAISES_AT_ROOT:
        got = last_frame_line(out, path)
        if got != line:
            return rel, f"error raised at line {got}, header says {line}"
    return rel, None


def main():
    tasks, counts = [], {}
    for fam in ("family_a", "family_b", "clean"):
        d = os.path.join(HERE, fam)
        names = sorted(f for f in os.listdir(d) if f.endswith(".py"))
        buggy = [f for f in names if not f.endswith(".fixed.py")]
        counts[fam] = len(buggy)
        for f in names:
            p = os.path.join(d, f)
            if fam == "clean" or f.endswith(".fixed.py"):
                tasks.append(("ok", p))
            else:
                tasks.append((fam, p))
    failures = []
    for fam, n in EXPECTED_COUNTS.items():
        if counts.get(fam) != n:
            failures.append((fam, f"expected {n} cases, found {counts.get(fam)}"))
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(check, tasks))
    for rel, err in results:
        print(("FAIL " if err else "ok   ") + rel + (f"  -- {err}" if err else ""))
        if err:
            failures.append((rel, err))
    print()
    print(f"cases: family_a={counts.get('family_a')} family_b={counts.get('family_b')} clean={counts.get('clean')}; "
          f"files run: {len(tasks)}; failures: {len(failures)}")
    for rel, err in failures:
        print(f"  FAIL {rel}: {err}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
