"""Which optimizers train what made the freed part of the failing graph: a GAN's discriminator
loss reads the generator's output, whose graph the generator's backward freed; the generator's
optimizer holds the parameters behind it, the discriminator's does not. The rule compares this
with the optimizer the code steps after the failing backward: a loss whose own update trains
nothing behind the freed part may take that tensor detached. Read at the failure from the
graph's leaves and the optimizers the user's frames hold; only their names are kept."""
from __future__ import annotations

from .graph import leaves_below
from .inplace_written import optimizer_values


def optimizers_training_freed(frames, roots, stale: set[int], budget: int) -> tuple[str, ...] | None:
    """The optimizers (as the frames name them: `opt_g`, `self.optimizer_G`) holding a parameter
    reached only through the freed part (`stale`, node ids); None when the graph could not be
    read whole or nothing but the freed part holds parameters."""
    met: list = []
    own = leaves_below(roots, budget, stop=stale, met=met)
    behind = leaves_below(met, budget) if own is not None else None
    if behind is None or not (behind := behind - own):
        return None
    return tuple(dict.fromkeys(path for path, opt in optimizer_values(frames)
                               if any(id(p) in behind for g in opt.param_groups for p in g["params"])))
