"""Several caches of one module found stale together (`self.cache_k[...] = xk`, then the same
for `cache_v`): store each detached, in one fix, since detaching one leaves the other failing."""
from __future__ import annotations

from .add_detach import add_detach_each


def detach_stores(source: str, stores: tuple[tuple[int, str], ...], reads: bool = False) -> str | None:
    """`reads=True`: each store feeds on its own past (`self.hist = cat([self.hist[1:], x])`),
    so each is cut where it reads itself, keeping this step's gradient."""
    return add_detach_each(source, [(line, (name,), reads) for line, name in stores])
