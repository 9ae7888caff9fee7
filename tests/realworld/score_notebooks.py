"""Score nb_autograd on the real-world notebook cases, in real kernels, cells sent with their
ids (`cell-<index>`) in the header's order: the right cause; the right place (the root's cell
or file, line within 1); the first fix, put where it says (that cell by its id, or that
file), runs clean in the same order; it trains like the expert's fix (the same trained
tensors at the end: modules' parameters, and leaf tensors that require grad, alone or in a
list); and correct notebooks get no diagnosis at all.
`python tests/realworld/score_notebooks.py [--json OUT] CASE_DIR_OR_PARENT...`"""
from __future__ import annotations

import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_case import NotebookCase, load, run_case  # noqa: E402

REPORT = "import json as _j, nb_autograd as _n; _r = _n.last_report(); print('@@' + _j.dumps(_r.to_dict() if _r else None))"
TRAINED = """
import torch as _t
def _trained(ns):
    out = {}
    for name, value in list(ns.items()):
        if name.startswith('_'):
            continue
        if isinstance(value, _t.nn.Module):
            for p, t in value.named_parameters():
                out.setdefault(id(t), (set(), t))[0].add(f'{name}.{p}')
        elif isinstance(value, _t.Tensor) and value.is_leaf and value.requires_grad:
            out.setdefault(id(value), (set(), value))[0].add(name)
        elif isinstance(value, (list, tuple)):  # MAML's `vars`: trained tensors kept in a list
            for i, t in enumerate(value):
                if isinstance(t, _t.Tensor) and t.is_leaf and t.requires_grad:
                    out.setdefault(id(t), (set(), t))[0].add(f'{name}[{i}]')
        elif hasattr(value, '__dict__') and not isinstance(value, type) and not callable(value) \
                and type(value).__name__ != 'module':
            try:  # `solver.model`: a trainer object's networks
                attrs = list(vars(value).items())
            except TypeError:
                attrs = []
            for attr, sub in attrs:
                if isinstance(sub, _t.nn.Module):
                    for p, t in sub.named_parameters():
                        out.setdefault(id(t), (set(), t))[0].add(f'{name}.{attr}.{p}')
    return [(sorted(n), t.detach().clone()) for n, t in out.values()]
_t.save(_trained(globals()), %r)
"""


@dataclass(frozen=True)
class Score:
    name: str
    scenario: str
    expected: str | None
    named: str | None = None
    place_ok: bool = False
    fix_runs_clean: bool | None = None
    fix_matches_expert: bool | None = None
    detail: str = ""

    @property
    def cause_ok(self) -> bool:
        return self.named == self.expected


def report_of(case: NotebookCase) -> tuple[dict | None, bool]:
    """The report after the last cell of the order (None if nothing explained), and whether
    that cell raised."""
    position, error, outputs = run_case(case, prelude="%load_ext nb_autograd", epilogue=REPORT)
    text = outputs[-1].stdout if outputs else ""
    line = next((l for l in text.splitlines() if l.startswith("@@")), "@@null")
    return json.loads(line[2:]), error is not None


def trained(case: NotebookCase, expert: bool = False, out: Path | None = None) -> tuple[Path | None, str]:
    path = out or Path(tempfile.mktemp(suffix=".pt"))
    _, error, outputs = run_case(case, expert=expert, epilogue=TRAINED % str(path))
    if error:
        return None, f"{error[0]}: {error[1][:100]}"
    if not path.exists():  # the epilogue itself failed: say so, not a missing file later
        return None, f"trained tensors not read: {outputs[-1].error if outputs else '?'}"
    return path, ""


def same(a: Path, b: Path) -> bool:
    ours, theirs = torch.load(a), torch.load(b)

    def covered(xs, ys) -> bool:
        for names, t in xs:
            m = next((u for n, u in ys if set(n) & set(names)), None)
            if m is None or m.shape != t.shape or not torch.allclose(m, t, atol=1e-5, rtol=1e-4):
                return False
        return True
    return bool(ours) and covered(ours, theirs) and covered(theirs, ours)


def patched_case(case: NotebookCase, fix: dict) -> NotebookCase | None:
    """The case with the fix put where it says: a cell (by id) or a module file, and the
    other cells or files it changes ("also") with it."""
    for edit in (fix, *fix.get("also", ())):
        where, new = edit.get("where") or {}, edit["patched_source"]
        if (where.get("cell_id") or "").startswith("cell-"):
            cells = list(case.cells)
            cells[int(where["cell_id"][5:])] = new.rstrip("\n")
            case = replace(case, cells=tuple(cells), files=case.files)
        elif where.get("file"):
            case = replace(case, files={**case.files, Path(where["file"]).name: new})
        else:
            return None
    return case


def score(folder: Path) -> Score:
    case = load(folder)
    h = case.header
    expected = None if h.get("scenario") == "clean" else h.get("cause")
    base = Score(folder.name, h.get("scenario", "?"), expected)
    report, raised = report_of(case)
    diagnoses = (report or {}).get("diagnoses") or []
    if not diagnoses:
        return replace(base, detail="no diagnosis" if raised else "")
    top = diagnoses[0]
    where = top.get("where") or {}
    kind, target, line = case.root or (None, None, None)
    if kind == "cell":
        place_ok = where.get("cell_id") == f"cell-{target}" and where.get("line") is not None and abs(where["line"] - line) <= 1
    elif kind == "file":
        place_ok = Path(where.get("file") or "").name == target and where.get("line") is not None and abs(where["line"] - line) <= 1
    else:
        place_ok = False
    result = replace(base, named=top["cause"], place_ok=place_ok, detail=json.dumps(where))
    if expected is None or not top.get("fixes"):
        return result
    fixed = patched_case(case, top["fixes"][0])
    if fixed is None:
        return replace(result, fix_runs_clean=False, detail="fix has no place")
    ours, error = trained(fixed)
    if ours is None:
        return replace(result, fix_runs_clean=False, detail=f"fix raised {error}")
    theirs, _ = trained(load(folder, expert=True), expert=True)
    return replace(result, fix_runs_clean=True, fix_matches_expert=theirs is not None and same(ours, theirs))


def folders(args: list[str]) -> list[Path]:
    out = []
    for a in map(Path, args):
        out += [a] if (a / "notebook.py").exists() else sorted(p.parent for p in a.rglob("notebook.py") if p.parent.name != "expert")
    return out


def summary(scores: list[Score]) -> dict:
    bad = [s for s in scores if s.expected]
    clean = [s for s in scores if not s.expected]
    n = len(bad) or 1
    return {"notebooks": len(bad), "cause": sum(s.cause_ok for s in bad), "place": sum(s.cause_ok and s.place_ok for s in bad),
            "fix_runs_clean": sum(bool(s.fix_runs_clean) for s in bad), "trains_like_expert": sum(bool(s.fix_matches_expert) for s in bad),
            "cause_rate": round(sum(s.cause_ok for s in bad) / n, 3), "clean": len(clean),
            "clean_quiet": sum(s.named is None for s in clean)}


def main(argv: list[str]) -> int:
    out = None
    if argv[:1] == ["--json"]:
        out, argv = Path(argv[1]), argv[2:]
    with ThreadPoolExecutor(2) as pool:
        scores = list(pool.map(score, folders(argv)))
    for s in scores:
        mark = "ok " if (s.cause_ok if s.expected else s.named is None) else "BAD"
        print(f"{mark} {s.name:55} {s.scenario:18} want={s.expected} got={s.named} place={s.place_ok} "
              f"runs={s.fix_runs_clean} expert={s.fix_matches_expert} {s.detail[:80]}")
    print(json.dumps(summary(scores)))
    if out:
        out.write_text(json.dumps({"scores": [asdict(s) for s in scores], "summary": summary(scores)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
