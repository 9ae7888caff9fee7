"""DistributedDataParallel marked a parameter's gradient ready twice in one step: the same
module ran twice under reentrant checkpointing (or shared parameters were reduced twice).

The line is the second checkpoint call of the same module (`checkpoint(self.block, h)`), else
the DDP construction. Fixes: `use_reentrant=False` on the checkpoint calls (the non-reentrant
checkpoint lets DDP see each use), or `static_graph=True` on DDP (the graph must not change
between iterations)."""
from __future__ import annotations

from ...evidence import Evidence
from ...fixes.plan import plan
from ..base import Hit
from .ddp_ready_twice_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "ddp_ready_twice"
SYMPTOM = "ddp_ready_twice"
CHECKPOINT = ("checkpoint", "checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint")
DDP_NAMES = ("DDP", "DistributedDataParallel")


def _checkpointed(ev: Evidence) -> list[tuple[str, int]]:
    """(module, line) of each checkpoint call, in order."""
    return [(c.args[0] or "?", c.line) for c in ev.code.calls
            if c.func in CHECKPOINT or c.func.endswith(".checkpoint") and c.args]


def match(ev: Evidence) -> Hit | None:
    calls = _checkpointed(ev)
    seen: dict[str, int] = {}
    for module, line in calls:
        if module in seen:
            return Hit(CAUSE, line, 0.9, facts=(("module", module), ("line", str(line)), ("first_line", str(seen[module]))),
                       variant="checkpoint")
        seen[module] = line
    made = next((c.line for c in ev.code.calls if c.func.rpartition(".")[2] in DDP_NAMES), None)
    return Hit(CAUSE, made or ev.line, 0.7, facts=(("module", "?"), ("line", str(made or ev.line or 0))),
               variant="shared")


def plans(hit: Hit, ev: Evidence) -> list:
    reentrant = plan("set_call_keyword", title="use_reentrant_false", function="checkpoint", keyword="use_reentrant",
                     value="False")
    static = plan("set_call_keyword", title="static_graph", function="ddp", keyword="static_graph", value="True")
    return [reentrant, static] if hit.variant == "checkpoint" else [static]
