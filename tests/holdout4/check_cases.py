"""Check holdout4 cases: family_a/*.py (not .fixed.py) must raise the
"backward through the graph a second time" error; clean/*.py and
family_a/*.fixed.py must exit 0. Also validates the 3-line header."""
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
MSG = "Trying to backward through the graph a second time"
CAUSES = {"double_backward", "accumulated_loss_backward_in_loop", "tensor_reused_across_iterations",
          "recurrent_state_not_detached", "computed_before_loop", "shared_subgraph_multiple_backward"}


def run(path):
    try:
        p = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=30,
                           cwd=str(path.parent))
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, "TIMEOUT"


def check(item):
    kind, path = item
    problems = []
    if kind == "buggy":
        lines = path.read_text().splitlines()
        m0 = re.fullmatch(r"# cause: (\S+)", lines[0])
        m1 = re.fullmatch(r"# line: (\d+)", lines[1])
        if not (m0 and m1 and lines[2].startswith("# why: ")):
            problems.append("bad header")
        else:
            if m0.group(1) not in CAUSES:
                problems.append(f"unknown cause {m0.group(1)}")
            n = int(m1.group(1))
            if not (4 <= n <= len(lines)) or not lines[n - 1].strip() or lines[n - 1].lstrip().startswith("#"):
                problems.append(f"line {n} is not a code line")
        if not path.with_name(path.stem + ".fixed.py").exists():
            problems.append("missing .fixed.py")
    rc, out = run(path)
    if kind == "buggy":
        if rc in (0, None) or MSG not in out:
            problems.append(f"expected error, got rc={rc}: {out[-400:]}")
    elif rc != 0:
        problems.append(f"expected exit 0, got rc={rc}: {out[-400:]}")
    return kind, path, problems


def main():
    items = []
    for p in sorted((HERE / "family_a").glob("*.py")):
        items.append(("fixed" if p.name.endswith(".fixed.py") else "buggy", p))
    for p in sorted((HERE / "clean").glob("*.py")):
        items.append(("clean", p))
    failures = 0
    counts = {}
    with ThreadPoolExecutor(max_workers=2) as ex:
        for kind, path, problems in ex.map(check, items):
            counts[kind] = counts.get(kind, 0) + 1
            status = "ok  " if not problems else "FAIL"
            print(f"{status} {kind:5s} {path.relative_to(HERE)}")
            for pr in problems:
                print("      ", pr)
            failures += bool(problems)
    print(f"\nsummary: {counts}, {len(items) - failures}/{len(items)} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
