"""What cuts a tensor off its graph, in one place: read by the evidence and by the fixes
(which add or remove exactly these), so both always mean the same thing."""
from __future__ import annotations

DETACHING = frozenset({"detach", "detach_", "item", "tolist", "numpy"})  # methods that leave the graph
NO_GRAD_MODES = frozenset({"no_grad", "inference_mode"})                # context managers with no graph
# calls whose result is made of integers or booleans: no gradient flows through them, so a
# loss computed from it has no graph (`preds = logits.argmax(1)`, `mask = (p > 0.5).long()`)
NON_DIFFERENTIABLE = frozenset({"argmax", "argmin", "argsort", "long", "int", "bool", "byte", "short"})
