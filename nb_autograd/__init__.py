"""nb_autograd: plain-language explanations and fixes for PyTorch autograd errors.

`%load_ext nb_autograd` in IPython/Jupyter; `nb_autograd.diagnose(source)` from Python;
`nb-autograd diagnose script.py` from a shell.
"""
from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["diagnose", "watch", "load_ipython_extension", "unload_ipython_extension", "__version__"]


def diagnose(source: str, *, lang: str = "en", watch: bool = True):
    """Run `source` like a notebook cell; return a Report (see nb_autograd.report)."""
    from .pipeline import diagnose as _diagnose

    return _diagnose(source, lang=lang, watch=watch)


def watch(*args, **kwargs):
    """Context manager recording provenance and silent problems in a script (see capture.watch)."""
    from .capture.watch import watch as _watch

    return _watch(*args, **kwargs)


def load_ipython_extension(shell) -> None:
    from .ipython import load

    load(shell)


def unload_ipython_extension(shell) -> None:
    from .ipython import unload

    unload(shell)
