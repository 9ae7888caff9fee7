"""Validate the real-world script cases WITHOUT nb_autograd: each case's header is complete,
a family A/B program raises its family's error, a family C or clean program and every
expert fix (`*.fixed.py`) exits 0. `python tests/realworld/check_scripts.py [DIR...]`.

Layout: scripts/{tuning,sealed}/{family_a,family_b,family_c,clean}/<name>.py (+ <name>.fixed.py)."""
from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent / "scripts"
HEADER = re.compile(r"^# (source|style|cause|line|expert|needs): *(.+)$", re.M)
MESSAGES = {
    "family_a": r"Trying to backward through the graph a second time|saved tensors after they have already been freed",
    "family_b": r"modified by an inplace operation|does not require grad and does not have a grad_fn|"
                r"grad can be implicitly created only for|leaf Variable that requires grad|"
                r"Can't call numpy\(\) on Tensor that requires grad|Expected all tensors to be on the same device",
}
FAMILIES = ("family_a", "family_b", "family_c", "clean")


def sealed(name: str) -> bool:
    """The split rule: two cases in five are sealed, chosen by the name's hash."""
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 5 < 2


def run(path: Path) -> tuple[int | None, str]:
    try:
        p = subprocess.run([sys.executable, path.name], capture_output=True, text=True, timeout=60, cwd=path.parent)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, "TIMEOUT (60 s)"


def check(path: Path) -> list[str]:
    family, split = path.parent.name, path.parent.parent.name
    source = path.read_text(encoding="utf-8")
    header = dict(HEADER.findall(source))
    problems = []
    wanted = ("source", "style", "expert") + (("cause", "line") if family != "clean" else ())
    problems += [f"header lacks '# {k}:'" for k in wanted if k not in header]
    if split in ("tuning", "sealed") and sealed(path.stem) != (split == "sealed"):
        problems.append(f"belongs in {'sealed' if sealed(path.stem) else 'tuning'}/ by the split rule")
    if "line" in header:
        n = int(header["line"])
        lines = source.splitlines()
        if not 0 < n <= len(lines) or not lines[n - 1].strip() or lines[n - 1].lstrip().startswith("#"):
            problems.append(f"line {n} is not a code line")
    rc, out = run(path)
    if family in MESSAGES:
        if rc == 0 or not re.search(MESSAGES[family], out):
            problems.append(f"does not raise its family's error (rc={rc}): {out.strip().splitlines()[-1:] }")
    elif rc != 0:
        problems.append(f"exits {rc}: {out.strip().splitlines()[-1:]}")
    fixed = path.with_name(path.stem + ".fixed.py")
    if family != "clean":
        if not fixed.exists():
            problems.append("no .fixed.py (the expert fix)")
        else:
            rc, out = run(fixed)
            if rc != 0:
                problems.append(f"the expert fix exits {rc}: {out.strip().splitlines()[-1:]}")
    return problems


def main(argv: list[str]) -> int:
    roots = [Path(a).resolve() for a in argv] or [HERE]
    paths = sorted(p for r in roots for p in r.rglob("*.py")
                   if not p.name.endswith(".fixed.py") and p.parent.name in FAMILIES)
    bad = 0
    with ThreadPoolExecutor(2) as pool:
        for path, problems in zip(paths, pool.map(check, paths)):
            if problems:
                bad += 1
                print(f"FAIL {path.relative_to(HERE.parent)}: " + "; ".join(problems))
            else:
                print(f"ok   {path.relative_to(HERE.parent)}")
    print(f"{len(paths) - bad} of {len(paths)} cases valid")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
