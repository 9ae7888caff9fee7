"""What cuts a tensor off its graph, in one place: read by the evidence and by the fixes
(which add or remove exactly these), so both always mean the same thing."""
from __future__ import annotations

DETACHING = frozenset({"detach", "detach_", "item", "tolist", "numpy"})  # methods that leave the graph
NO_GRAD_MODES = frozenset({"no_grad", "inference_mode"})                # context managers with no graph
