"""Run every held-out case and verify it behaves as labelled.

family_a/*.py   must raise "Trying to backward through the graph a second time"
family_b/*.py   must raise the error of their labelled cause
clean/*.py      must exit 0
*.fixed.py      must exit 0 and keep the buggy program's module-level names

Usage: python tests/holdout/check_cases.py [-j N]
"""
import argparse
import ast
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TIMEOUT = 30

FAMILY_A_MSG = "Trying to backward through the graph a second time"
FAMILY_A = {
    "double_backward",
    "accumulated_loss_backward_in_loop",
    "tensor_reused_across_iterations",
    "recurrent_state_not_detached",
    "computed_before_loop",
    "shared_subgraph_multiple_backward",
}
FAMILY_B = {
    "inplace_modified_saved_tensor": "modified by an inplace operation",
    "no_grad_fn": "does not require grad and does not have a grad_fn",
    "non_scalar_backward": "grad can be implicitly created only for scalar outputs",
    "leaf_inplace": "a leaf Variable that requires grad is being used in an in-place operation",
    "numpy_on_grad_tensor": "Can't call numpy() on Tensor that requires grad",
}
EXPECTED_COUNTS = {**{c: 4 for c in FAMILY_A}, **{c: 3 for c in FAMILY_B}}
EXPECTED_CLEAN = 10
# causes whose labelled root line is the line that raises
ROOT_IS_RAISING_LINE = {
    "double_backward",
    "shared_subgraph_multiple_backward",
    "non_scalar_backward",
    "leaf_inplace",
    "numpy_on_grad_tensor",
}
HEADER_RE = [
    re.compile(r"^# cause: (\S+)$"),
    re.compile(r"^# line: (\d+)$"),
    re.compile(r"^# why: (.+\S)$"),
]


GLOBALS_TAG = "@@HOLDOUT_GLOBALS@@"
DUMP_GLOBALS = (
    "import json, runpy, sys; g = runpy.run_path(sys.argv[1], run_name='__main__'); "
    f"print({GLOBALS_TAG!r} + json.dumps(sorted(g)))"
)


def run(path, dump_globals=False):
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    cmd = [sys.executable, "-c", DUMP_GLOBALS, str(path)] if dump_globals else [sys.executable, str(path)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=TIMEOUT, cwd=str(path.parent), env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", f"TIMEOUT after {TIMEOUT}s"


def parse_header(path):
    lines = path.read_text().splitlines()
    vals = []
    for i, rx in enumerate(HEADER_RE):
        m = rx.match(lines[i]) if i < len(lines) else None
        if not m:
            raise ValueError(f"bad header line {i + 1}: {lines[i] if i < len(lines) else '<missing>'!r}")
        vals.append(m.group(1))
    cause, line = vals[0], int(vals[1])
    if not (4 <= line <= len(lines)):
        raise ValueError(f"root line {line} outside program body")
    text = lines[line - 1].strip()
    if not text or text.startswith("#"):
        raise ValueError(f"root line {line} is blank or a comment")
    return cause, line


def last_frame_line(stderr, path):
    hits = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    mine = [int(n) for f, n in hits if os.path.abspath(f) == str(path)]
    return mine[-1] if mine else None


def module_names(path):
    """Names bound by straight-line module-level statements of the buggy program (models,
    optimizers, data, helper functions/classes); the fixed program must still define them
    once it has run. Loop temporaries are not required to survive a fix."""
    tree = ast.parse(path.read_text())
    names = set()
    for s in tree.body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(s.name)
        elif isinstance(s, ast.Assign):
            for t in s.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        names.add(n.id)
        elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
            names.add(s.target.id)
    return names


def check_case(family, path):
    errs = []
    try:
        cause, line = parse_header(path)
    except (ValueError, IndexError) as e:
        return [str(e)], None
    if family == "family_a":
        if cause not in FAMILY_A:
            errs.append(f"cause {cause!r} is not a family-A cause")
        expected = FAMILY_A_MSG
    else:
        if cause not in FAMILY_B:
            errs.append(f"cause {cause!r} is not a family-B cause")
        expected = FAMILY_B.get(cause, "<unknown>")
    rc, _, err = run(path)
    if rc is None:
        errs.append(err)
    elif rc == 0:
        errs.append("buggy program exited 0 (expected an error)")
    elif expected not in err:
        tail = err.strip().splitlines()[-1:] or ["<no stderr>"]
        errs.append(f"expected {expected!r}, got: {tail[0][:200]}")
    elif cause in ROOT_IS_RAISING_LINE:
        raised = last_frame_line(err, path)
        if raised != line:
            errs.append(f"header line {line} but error raised at line {raised}")

    fixed = path.with_name(path.stem + ".fixed.py")
    if not fixed.exists():
        errs.append("missing .fixed.py")
    else:
        frc, fout, ferr = run(fixed, dump_globals=True)
        if frc != 0:
            tail = ferr.strip().splitlines()[-1:] or ["<no stderr>"]
            errs.append(f"fixed program failed (rc={frc}): {tail[0][:200]}")
        else:
            dumped = [l for l in fout.splitlines() if l.startswith(GLOBALS_TAG)]
            have = set(json.loads(dumped[-1][len(GLOBALS_TAG):])) if dumped else set()
            missing = module_names(path) - have
            if missing:
                errs.append(f"fixed program lacks module-level names: {sorted(missing)}")
    return errs, cause


def check_clean(path):
    rc, _, err = run(path)
    if rc != 0:
        tail = err.strip().splitlines()[-1:] or ["<no stderr>"]
        return [f"clean program failed (rc={rc}): {tail[0][:200]}"], None
    return [], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()

    jobs = []
    for family in ("family_a", "family_b"):
        for p in sorted((HERE / family).glob("*.py")):
            if not p.name.endswith(".fixed.py"):
                jobs.append((family, p))
    for p in sorted((HERE / "clean").glob("*.py")):
        jobs.append(("clean", p))

    def work(job):
        family, p = job
        if family == "clean":
            return job, check_clean(p)
        return job, check_case(family, p)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(work, jobs))

    failures = 0
    counts = {}
    n_clean = 0
    for (family, p), (errs, cause) in results:
        rel = p.relative_to(HERE)
        if family == "clean":
            n_clean += 1
        elif cause:
            counts[cause] = counts.get(cause, 0) + 1
        status = "ok  " if not errs else "FAIL"
        print(f"{status} {rel}" + (f"  [{cause}]" if cause else ""))
        for e in errs:
            print(f"       - {e}")
        failures += bool(errs)

    print("\nper-cause counts:")
    count_problems = []
    for cause in sorted(EXPECTED_COUNTS):
        got = counts.get(cause, 0)
        flag = "" if got == EXPECTED_COUNTS[cause] else f"   (expected {EXPECTED_COUNTS[cause]})"
        if flag:
            count_problems.append(cause)
        print(f"  {cause:38s} {got}{flag}")
    for cause in sorted(set(counts) - set(EXPECTED_COUNTS)):
        print(f"  {cause:38s} {counts[cause]}   (unexpected cause)")
        count_problems.append(cause)
    flag = "" if n_clean == EXPECTED_CLEAN else f"   (expected {EXPECTED_CLEAN})"
    if flag:
        count_problems.append("clean")
    print(f"  {'clean':38s} {n_clean}{flag}")

    print(f"\n{len(results) - failures}/{len(results)} cases passed"
          + (f", count mismatches: {count_problems}" if count_problems else ""))
    return 1 if failures or count_problems else 0


if __name__ == "__main__":
    sys.exit(main())
