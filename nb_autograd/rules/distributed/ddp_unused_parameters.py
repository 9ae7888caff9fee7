"""DistributedDataParallel waits for a gradient of every parameter, and some parameters never
contribute to the loss (an unused head): the next iteration finds the reduction unfinished.

Runtime facts: the message's parameter indices, named through the DDP module the frames hold;
the line is where the module defines the first unused one (`self.aux_head = nn.Linear(...)`).
Fixes: `find_unused_parameters=True` (an extra pass over the graph every step), or use the
parameters in the loss / remove them (a model change: said in words, not patched)."""
from __future__ import annotations

from ...evidence import Evidence
from ...fixes.plan import plan
from ..base import Hit
from .ddp_unused_parameters_examples import BAD, GOOD  # noqa: F401  (the registry reads them here)

CAUSE = "ddp_unused_parameters"
SYMPTOM = "ddp_unused"


def unused(ev: Evidence) -> list[str]:
    """The names of the parameters that got no gradient, from the message's indices."""
    names = ev.failure.ddp_parameters if ev.failure else ()
    indices = [int(i) for i in ev.symptom.get("unused_indices").split() if i.isdigit()] if ev.symptom else []
    return [names[i] for i in indices if i < len(names)]


def match(ev: Evidence) -> Hit | None:
    params = unused(ev)
    modules = list(dict.fromkeys(p.rpartition(".")[0] or p for p in params))
    line = None
    for module in modules:
        made = [a.line for a in ev.code.assigns_to("self." + module.split(".")[0])]
        if made:
            line = made[0]
            break
    facts = (("params", ", ".join(params) or "?"), ("module", modules[0] if modules else "?"),
             ("line", str(line or ev.line or 0)))
    return Hit(CAUSE, line or ev.line, 0.9 if line else 0.6, facts=facts, variant="" if params else "unknown")


def plans(hit: Hit, ev: Evidence) -> list:
    return [plan("set_call_keyword", title="find_unused_parameters", function="ddp",
                 keyword="find_unused_parameters", value="True")]
