"""A backward the user's line did not write: a library it calls runs its own (Grad-CAM's
`cam(input_tensor=x_fake[i:i + 1])`), on an argument still attached to a graph an earlier
backward freed."""
from __future__ import annotations

from ...evidence import Evidence


def library_argument(ev: Evidence) -> tuple[str, int, int] | None:
    """The failing backward ran inside a library the user's line called (Grad-CAM's
    `cam(input_tensor=x_fake[i:i + 1])` backpropagates a score into its input): an argument of
    that call reaches the graph an earlier backward freed (the generator's step). Named where
    that argument was made: (its name, that line, the line of the backward that freed it)."""
    if ev.line is None or not ev.freeing_calls or ev.same_root_call:
        return None
    args = sorted({n for c in ev.code.calls if c.line == ev.line for n in c.arg_names
                   if "." not in n and ev.reaches_stale(n)})
    made = [a.line for name in args[:1] for a in ev.code.assigns_to(name) if a.line < ev.line and not a.detached]
    if not made:
        return None
    return args[0], max(made), ev.freeing_calls[-1].line or ev.line
