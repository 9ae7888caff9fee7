"""Which optimizers train what made the freed part of the failing graph: a GAN's discriminator
loss reads the generator's output, whose graph the generator's backward freed; the generator's
optimizer holds the parameters behind it, the discriminator's does not. The rule compares this
with the optimizer the code steps after the failing backward: a loss whose own update trains
nothing behind the freed part may take that tensor detached. Read at the failure from the
graph's leaves and the optimizers the user's frames hold; only their names are kept."""
from __future__ import annotations

from . import touch
from .graph import node_id
from .inplace_written import optimizer_values


def _leaves(starts, stop: set[int], budget: int, met: list) -> set[int] | None:
    """ids of the parameters reached from `starts` without entering `stop` (the `stop` nodes
    met are added to `met`); None when the walk ran out of room (a part left unread could hold
    any parameter)."""
    seen, todo, out = set(), list(starts), set()
    while todo:
        if len(seen) >= budget:
            return None
        node = todo.pop()
        nid = node_id(node)
        if nid in stop and nid not in seen:
            met.append(node)
            seen.add(nid)
        if nid in seen:
            continue
        seen.add(nid)
        variable = getattr(node, "variable", None) if type(node).__name__ == "AccumulateGrad" else None
        if variable is not None:
            out.add(id(variable))
        todo.extend(touch.children(node))
    return out


def optimizers_training_freed(frames, roots, stale: set[int], budget: int) -> tuple[str, ...] | None:
    """The optimizers (as the frames name them: `opt_g`, `self.optimizer_G`) holding a parameter
    reached only through the freed part (`stale`, node ids); None when the graph could not be
    read whole or nothing but the freed part holds parameters."""
    met: list = []
    own = _leaves(roots, stale, budget, met)
    behind = _leaves(met, set(), budget, []) if own is not None else None
    if behind is None or not (behind := behind - own):
        return None
    return tuple(dict.fromkeys(path for path, opt in optimizer_values(frames)
                               if any(id(p) in behind for g in opt.param_groups for p in g["params"])))
