"""Several caches of one module found stale together (`self.cache_k[...] = xk`, then the same
for `cache_v`): store each detached, in one fix, since detaching one leaves the other failing."""
from __future__ import annotations

from .add_detach import add_detach


def detach_stores(source: str, stores: tuple[tuple[int, str], ...]) -> str | None:
    out = source
    for line, name in stores:
        patched = add_detach(out, line=line, names=(name,))
        if patched is None:
            return None
        out = patched
    return out if out != source else None
