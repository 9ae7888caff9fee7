"""Accuracy on cases the rules were not written from (tests/fresh/, written blind).

For each bad case: is the right cause named first, at the right line; does the first fix
run clean; does it train to the same parameters as the expert's fix (*.fixed.py).
Clean programs must get no diagnosis. `python benchmarks/accuracy.py [--json] [DIR...]`
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

import nb_autograd

FRESH = Path(__file__).resolve().parent.parent / "tests" / "fresh"
HEADER = re.compile(r"^# (cause|line|needs): *(.+)$", re.M)


@dataclass(frozen=True)
class CaseResult:
    name: str
    family: str
    expected: str | None
    expected_line: int | None
    named: str | None
    line: int | None
    fix_runs_clean: bool | None = None
    fix_matches_expert: bool | None = None

    @property
    def cause_ok(self) -> bool:
        return self.named == self.expected

    @property
    def line_ok(self) -> bool:
        return self.cause_ok and self.line == self.expected_line


OPTIMIZERS = "_nb_autograd_optimizers"  # optimizers the program made, even inside functions that returned


@contextlib.contextmanager
def _keeping_optimizers(kept: list):
    init = torch.optim.Optimizer.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        kept.append(self)

    torch.optim.Optimizer.__init__ = keep
    try:
        yield
    finally:
        torch.optim.Optimizer.__init__ = init


def _quiet_exec(source: str, filename: str) -> tuple[dict, BaseException | None]:
    namespace = {"__name__": "__main__", "__file__": filename}
    kept: list = []
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), _keeping_optimizers(kept):
        try:
            exec(compile(source, filename, "exec"), namespace)
        except Exception as exc:
            return namespace, exc
        finally:
            namespace[OPTIMIZERS] = kept
    return namespace, None


def _trained(namespace: dict) -> list[tuple[frozenset[str], torch.Tensor]]:
    """Each trained tensor once, with every name it is reachable by: module parameters,
    leaf tensors that require grad, and modules or such tensors held by plain objects (a
    Trainer, an attack's patch)."""
    names: dict[int, set[str]] = {}
    values: dict[int, torch.Tensor] = {}

    def add(name: str, tensor: torch.Tensor) -> None:
        names.setdefault(id(tensor), set()).add(name)
        values[id(tensor)] = tensor

    for i, optimizer in enumerate(namespace.get(OPTIMIZERS, ())):  # also what functions trained and dropped
        for g, group in enumerate(optimizer.param_groups):
            for j, t in enumerate(group["params"]):
                add(f"optimizer{i}.{g}.{j}", t)
    for name, value in namespace.items():
        if isinstance(value, torch.nn.Module):
            for p, t in value.named_parameters():
                add(f"{name}.{p}", t)
        elif isinstance(value, torch.Tensor) and value.is_leaf and value.requires_grad:
            add(name, value)
        elif not isinstance(value, type) and hasattr(value, "__dict__"):
            for attr, sub in list(vars(value).items()):
                if isinstance(sub, torch.nn.Module):
                    for p, t in sub.named_parameters():
                        add(f"{name}.{attr}.{p}", t)
                elif isinstance(sub, torch.Tensor) and sub.is_leaf and sub.requires_grad:  # an attack's patch
                    add(f"{name}.{attr}", sub)
    return [(frozenset(names[i]), values[i].detach().clone()) for i in names]


def same_training(patched: str, expert: str) -> bool:
    """Every trained tensor of each program has an equal one under a shared name in the other
    (a tensor reachable by two names, `model` and `trainer.model`, counts once)."""
    ours, error = _quiet_exec(patched, "<patched>")
    theirs, expert_error = _quiet_exec(expert, "<expert>")
    if error is not None or expert_error is not None:
        return False
    a, b = _trained(ours), _trained(theirs)

    def covered(groups, others) -> bool:
        for names, tensor in groups:
            match = next((t for n, t in others if n & names), None)
            if match is None or match.shape != tensor.shape or not torch.allclose(match, tensor, atol=1e-5, rtol=1e-4):
                return False
        return True

    return bool(a) and covered(a, b) and covered(b, a)


def evaluate(path: Path) -> CaseResult | None:
    source = path.read_text(encoding="utf-8")
    header = dict(HEADER.findall(source))
    if "cuda" in header.get("needs", "") and not torch.cuda.is_available():
        return None
    family = path.parent.name
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        report = nb_autograd.diagnose(source)
    top = report.top or (report.findings[0] if report.findings else None)  # clean code: no finding either
    result = CaseResult(path.stem, family, header.get("cause"), int(header["line"]) if "line" in header else None,
                        top.cause if top else None, top.line if top else None)
    if family == "clean" or top is None:
        return result
    fix = top.fixes[0] if top.fixes else None
    runs = fix is not None and _quiet_exec(fix.patched_source, "<patched>")[1] is None
    if runs and not report.diagnoses:  # a silent finding's fix must also silence it
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runs = not any(f.cause == top.cause for f in nb_autograd.diagnose(fix.patched_source).findings)
    expert = path.with_name(path.stem + ".fixed.py")
    matches = runs and expert.exists() and same_training(fix.patched_source, expert.read_text(encoding="utf-8"))
    return CaseResult(**{**asdict(result), "fix_runs_clean": runs, "fix_matches_expert": matches})


def cases(folders: list[Path]) -> list[Path]:
    return sorted(p for folder in folders for p in folder.glob("*.py")
                  if not p.name.endswith(".fixed.py") and p.name != "check_cases.py")


def summary(results: list[CaseResult]) -> dict:
    out = {}
    for family in sorted({r.family for r in results}):
        rs = [r for r in results if r.family == family]
        if family == "clean":
            out[family] = {"cases": len(rs), "no_diagnosis": sum(r.named is None for r in rs)}
            continue
        out[family] = {"cases": len(rs), "cause": sum(r.cause_ok for r in rs), "line": sum(r.line_ok for r in rs),
                       "fix_runs_clean": sum(bool(r.fix_runs_clean) for r in rs),
                       "fix_matches_expert": sum(bool(r.fix_matches_expert) for r in rs)}
    return out


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    folders = [Path(a) for a in argv if not a.startswith("--")] or [FRESH / "family_a", FRESH / "family_b", FRESH / "clean"]
    results = [r for r in (evaluate(p) for p in cases([f for f in folders if f.exists()])) if r is not None]
    if as_json:
        print(json.dumps({"summary": summary(results), "cases": [asdict(r) for r in results]}, indent=2))
        return 0
    for r in results:
        mark = "ok " if (r.named is None if r.family == "clean" else r.line_ok) else "MISS"
        print(f"{mark} {r.family:9} {r.name:40} expected {r.expected}:{r.expected_line}  got {r.named}:{r.line}"
              f"  fix runs={r.fix_runs_clean} same={r.fix_matches_expert}")
    for family, numbers in summary(results).items():
        print(family, numbers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
