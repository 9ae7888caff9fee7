"""Validate the real-world notebook cases WITHOUT nb_autograd: the header is complete, a bad
notebook raises its family's error in the last cell of its order (and nowhere before), a
clean one and every expert fix run clean in the same order, and the expert fix trains the same
parameters on every run (seeded).
`python tests/realworld/check_notebooks.py [CASE_DIR...]`."""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_scripts import MESSAGES, sealed  # noqa: E402
from notebook_case import load, run_case  # noqa: E402
from score_notebooks import same, trained  # noqa: E402

HERE = Path(__file__).resolve().parent / "notebooks"
FAMILY_OF = {"inplace_modified_saved_tensor": "family_b", "no_grad_fn": "family_b", "non_scalar_backward": "family_b",
             "leaf_inplace": "family_b", "numpy_on_grad_tensor": "family_b", "device_mismatch": "family_b"}


def check(folder: Path) -> list[str]:
    case = load(folder)
    h, problems = case.header, []
    clean = h.get("scenario") == "clean"
    wanted = ("source", "scenario", "expert") + (() if clean else ("cause", "root"))
    problems += [f"header lacks '# {k}:'" for k in wanted if k not in h]
    split = folder.parent.name
    if split in ("tuning", "sealed") and sealed(folder.name) != (split == "sealed"):
        problems.append(f"belongs in {'sealed' if sealed(folder.name) else 'tuning'}/ by the split rule")
    if not clean and case.root is None:
        problems.append("root must read 'cell K line N' or 'file NAME line N'")
    elif not clean:
        kind, where, line = case.root
        text = case.cells[where] if kind == "cell" and where < len(case.cells) else \
            (folder / where).read_text() if kind == "file" and (folder / where).exists() else None
        if text is None or not 0 < line <= len(text.splitlines()) or not text.splitlines()[line - 1].strip():
            problems.append(f"root {h.get('root')} is not a code line")
    if any(i >= len(case.cells) for i in case.order):
        return problems + ["order names a cell that does not exist"]
    position, error, _ = run_case(case)
    if clean:
        if error:
            problems.append(f"clean notebook raised {error[0]}: {error[1][:120]}")
    else:
        family = FAMILY_OF.get(h.get("cause", ""), "family_a")
        if error is None:
            problems.append("raised nothing")
        elif position != len(case.order) - 1:
            problems.append(f"raised at position {position} of the order, not in the last cell run")
        elif not re.search(MESSAGES[family], error[1]):
            problems.append(f"raised another error: {error[0]}: {error[1][:120]}")
        if not (folder / "expert").is_dir():
            problems.append("no expert/ folder")
        else:
            expert = load(folder, expert=True)
            first, error = trained(expert, expert=True)
            second, _ = trained(expert, expert=True) if first else (None, "")
            if error:
                problems.append(f"the expert fix raised {error}")
            elif second is None or not same(first, second):  # "trains like the expert" needs one answer
                problems.append("the expert fix trains differently on each run: seed everything it draws")
    return problems


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or sorted(p.parent for p in HERE.rglob("notebook.py") if p.parent.name != "expert")
    bad = 0
    for folder in folders:
        problems = check(folder)
        bad += bool(problems)
        print(("FAIL " if problems else "ok   ") + str(folder) + (": " + "; ".join(problems) if problems else ""))
    print(f"{len(folders) - bad} of {len(folders)} cases valid")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
