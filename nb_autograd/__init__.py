"""nb_autograd: plain-language explanations and fixes for PyTorch autograd errors.

`%load_ext nb_autograd` in IPython/Jupyter; `nb_autograd.diagnose(source)` from Python;
`nb-autograd diagnose script.py` from a shell.
"""
from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["diagnose", "watch", "last_report", "load_ipython_extension", "unload_ipython_extension", "__version__"]


def diagnose(source: str, *, lang: str = "en", watch: bool = True):
    """Run `source` like a notebook cell; return a Report (see nb_autograd.report)."""
    from .pipeline import diagnose as _diagnose

    return _diagnose(source, lang=lang, watch=watch)


def watch(*args, **kwargs):
    """Context manager recording provenance and silent problems in a script (see script_watch)."""
    from .script_watch import watch as _watch

    return _watch(*args, **kwargs)


def last_report():
    """The latest Report of this kernel (an error explained or a %%gradwatch finding), or None."""
    import sys

    layer = sys.modules.get(f"{__name__}.ipython")
    active = getattr(layer, "_active", None)
    return active.last_report if active is not None else None


def load_ipython_extension(shell) -> None:
    from .ipython import load

    load(shell)


def unload_ipython_extension(shell) -> None:
    from .ipython import unload

    unload(shell)
