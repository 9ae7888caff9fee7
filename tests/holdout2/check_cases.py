"""Run every held-out case in its own subprocess and check its outcome.

family_a/*.py (buggy)  -> must raise "Trying to backward through the graph a second time"
family_b/*.py (buggy)  -> must raise the error message of its declared cause
*.fixed.py and clean/  -> must exit 0
Also validates the 3-line header (cause / line / why) of every buggy file.
"""
import ast
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 30

FAMILY_A = {
    "double_backward", "accumulated_loss_backward_in_loop", "tensor_reused_across_iterations",
    "recurrent_state_not_detached", "computed_before_loop", "shared_subgraph_multiple_backward",
}
FAMILY_B_MSG = {
    "inplace_modified_saved_tensor": "has been modified by an inplace operation",
    "no_grad_fn": "does not require grad and does not have a grad_fn",
    "non_scalar_backward": "grad can be implicitly created only for scalar outputs",
    "leaf_inplace": "a leaf Variable that requires grad is being used in an in-place operation",
    "numpy_on_grad_tensor": "Can't call numpy() on Tensor that requires grad",
    "device_mismatch": "Expected all tensors to be on the same device",
}
FAMILY_A_MSG = "Trying to backward through the graph a second time"
HEADER_RE = [re.compile(r"^# cause: (\S+)$"), re.compile(r"^# line: (\d+)$"), re.compile(r"^# why: \S.*$")]


def run(path):
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, path], capture_output=True, text=True,
                           timeout=TIMEOUT, cwd=os.path.dirname(path))
        return p.returncode, p.stdout + p.stderr, time.time() - t0
    except subprocess.TimeoutExpired:
        return None, "TIMEOUT", time.time() - t0


def parse_header(path):
    lines = open(path).read().split("\n")
    groups = []
    for rx, line in zip(HEADER_RE, lines[:3]):
        m = rx.match(line)
        if not m:
            return None, f"bad header line {line!r}"
        groups.append(m.group(1) if m.groups() else None)
    cause, lineno = groups[0], int(groups[1])
    if not (3 < lineno <= len(lines)) or not lines[lineno - 1].strip() or lines[lineno - 1].lstrip().startswith("#"):
        return None, f"line {lineno} is not a code line"
    return (cause, lineno), None


def top_level_names(path):
    """Names bound at module level (including inside module-level for/with/if/try blocks)."""
    names = set()

    def visit(stmts):
        for node in stmts:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                continue
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = [node.target]
            elif isinstance(node, ast.With):
                targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        names.add(n.id)
            for field in ("body", "orelse", "finalbody"):
                visit(getattr(node, field, []) or [])
            for h in getattr(node, "handlers", []) or []:
                visit(h.body)

    visit(ast.parse(open(path).read()).body)
    return names


def main():
    results = []  # (path, ok, msg)
    warnings = []
    for family in ("family_a", "family_b", "clean"):
        d = os.path.join(HERE, family)
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".py"):
                continue
            path = os.path.join(d, fn)
            rel = os.path.relpath(path, HERE)
            is_fixed = fn.endswith(".fixed.py")
            if family == "clean" or is_fixed:
                if family != "clean":
                    buggy = path[:-len(".fixed.py")] + ".py"
                    if not os.path.exists(buggy):
                        results.append((rel, False, "no buggy counterpart"))
                        continue
                    missing = top_level_names(buggy) - top_level_names(path)
                    if missing:
                        warnings.append(f"{rel}: module-level names missing vs buggy: {sorted(missing)}")
                rc, out, dt = run(path)
                ok = rc == 0
                results.append((rel, ok, f"rc={rc} {dt:.1f}s" + ("" if ok else "\n" + out[-1500:])))
                continue
            hdr, err = parse_header(path)
            if err:
                results.append((rel, False, err))
                continue
            cause, lineno = hdr
            if family == "family_a":
                if cause not in FAMILY_A:
                    results.append((rel, False, f"cause {cause} not a family-A cause"))
                    continue
                expected = FAMILY_A_MSG
            else:
                if cause not in FAMILY_B_MSG:
                    results.append((rel, False, f"cause {cause} not a family-B cause"))
                    continue
                expected = FAMILY_B_MSG[cause]
            if not os.path.exists(path[:-3] + ".fixed.py"):
                results.append((rel, False, "missing .fixed.py"))
                continue
            rc, out, dt = run(path)
            ok = rc not in (0, None) and expected in out
            tail = out.strip().splitlines()[-1] if out.strip() else ""
            results.append((rel, ok, f"rc={rc} {dt:.1f}s cause={cause} line={lineno}"
                            + ("" if ok else f"\n  expected {expected!r}\n  got: {out[-1500:]}")))
    n_ok = sum(ok for _, ok, _ in results)
    for rel, ok, msg in results:
        print(("PASS " if ok else "FAIL ") + rel + "  " + msg)
    for w in warnings:
        print("WARN " + w)
    counts = {}
    for rel, _, _ in results:
        fam = rel.split(os.sep)[0]
        kind = "fixed" if rel.endswith(".fixed.py") else ("clean" if fam == "clean" else "buggy")
        counts[(fam, kind)] = counts.get((fam, kind), 0) + 1
    print("\nSummary: %d/%d passed" % (n_ok, len(results)))
    for k in sorted(counts):
        print("  %-9s %-6s %d" % (k[0], k[1], counts[k]))
    return 0 if n_ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
