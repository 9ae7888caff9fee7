"""The IPython layer: the exception hook and the per-shell Extension (the magics it registers
are in magics.py).

The native traceback always prints first; everything after it is guarded, so a failure of
ours prints one line and never unregisters the handler chain.
"""
from __future__ import annotations

import sys

from .capture.backwards import RECORDER
from .capture.frames import is_user_file
from .capture.session import SESSION
from .evidence.symptoms import is_autograd_error
from .i18n import text

# Imported on first use, or while the kernel is idle after loading (`_warm`): loading stays
# light, and the first explanation does not pay for LibCST and the view.
WARM = ("nb_autograd.pipeline", "nb_autograd.rules.registry", "nb_autograd.view.display", "nb_autograd.view.widget",
        "nb_autograd.fixes.plan")
WARM_AFTER_S = 1.0


def analyze(*args, **kwargs):
    from .pipeline import analyze as _analyze

    return _analyze(*args, **kwargs)


def show(*args, **kwargs):
    from .view.display import show as _show

    return _show(*args, **kwargs)


def _warm(loop, left: list[str]) -> None:
    """Import one module of the explanation path, then let the kernel serve what waits."""
    import importlib

    try:
        module = importlib.import_module(left.pop(0))
        if module.__name__.endswith("registry"):
            module.all_rules()
        elif module.__name__.endswith("fixes.plan"):
            importlib.import_module("nb_autograd.fixes.cst").load("x = f(1)\n")  # LibCST's parser and metadata
    except Exception:
        left.clear()
    if left:
        loop.call_later(0.05, _warm, loop, left)

_active: "Extension | None" = None


def _cell_id(shell) -> str | None:
    try:
        return (shell.get_parent() or {}).get("metadata", {}).get("cellId")
    except Exception:
        return None


def _native(tb):
    """The traceback as it would be without us (the recorder's frames left out)."""
    from .capture.run import native_traceback

    return native_traceback(tb)


class Extension:
    """One per shell: what it installed, and what to put back."""

    def __init__(self, shell):
        self.shell = shell
        self.previous = (shell.custom_exceptions, shell.CustomTB)
        self.previous_handler = None
        self.last_report = None
        self.pending: dict[int, object] = {}  # id(exception) -> report made inside %%gradwatch
        self.watch_filenames: set[str] = set()
        self.transforming_watched = False  # %%gradwatch is transforming its own body

    # %gradwatch on: every cell runs as if it began with `%%gradwatch --quiet` ----------------
    def watch_every_cell(self, on: bool) -> None:
        cleanup = self.shell.input_transformers_cleanup
        if on and self._watch_transformer not in cleanup:
            cleanup.insert(0, self._watch_transformer)
        elif not on:
            while self._watch_transformer in cleanup:
                cleanup.remove(self._watch_transformer)

    @property
    def watching_every_cell(self) -> bool:
        return self._watch_transformer in self.shell.input_transformers_cleanup

    def _watch_transformer(self, lines: list[str]) -> list[str]:
        """Before IPython reads magics: a cell that is not itself a cell magic (or a
        %gradwatch line) is run under the watcher."""
        first = next((line for line in lines if line.strip()), "")
        if self.transforming_watched or not first or first.lstrip().startswith(("%%", "%gradwatch")):
            return lines
        return ["%%gradwatch --quiet\n", *lines]

    # install -----------------------------------------------------------------------
    def install(self) -> None:
        types, custom_tb = self.previous
        self.previous_types = tuple(types) if isinstance(types, tuple) else ()
        self.previous_handler = custom_tb if self.previous_types else None
        self.shell.set_custom_exc(tuple({RuntimeError, *self.previous_types}), self._handler)
        self.installed_tb = self.shell.CustomTB
        RECORDER.acquire()
        self.shell.events.register("pre_run_cell", self._pre_run_cell)
        self.shell.events.register("post_run_cell", self._post_run_cell)
        from .magics import GradMagics

        self.shell.register_magics(GradMagics(self.shell, self))
        loop = getattr(getattr(self.shell, "kernel", None), "io_loop", None)
        if hasattr(loop, "call_later"):
            loop.call_later(WARM_AFTER_S, _warm, loop, list(WARM))

    def uninstall(self) -> None:
        if self.shell.CustomTB is self.installed_tb:  # only if nobody chained after us
            self.shell.custom_exceptions, self.shell.CustomTB = self.previous
        for name, callback in (("pre_run_cell", self._pre_run_cell), ("post_run_cell", self._post_run_cell)):
            try:
                self.shell.events.unregister(name, callback)
            except ValueError:
                pass
        self.watch_every_cell(False)
        magics = self.shell.magics_manager.magics
        for kind, names in (("line", ("gradfix", "nb_autograd", "gradwatch")), ("cell", ("gradwatch",))):
            for name in names:
                magics[kind].pop(name, None)
        RECORDER.release()
        SESSION.clear()
        self.pending.clear()
        self.last_report = None

    def _pre_run_cell(self, info=None, *args) -> None:
        cell_id = getattr(info, "cell_id", None) or _cell_id(self.shell)
        SESSION.begin(cell_id=cell_id, raw=getattr(info, "raw_cell", None))

    def _post_run_cell(self, result=None, *args) -> None:
        try:
            count = getattr(result, "execution_count", None)
            cells = getattr(self.shell.compile, "_filename_map", {})
            keys = [k for k, n in cells.items() if n == count]
            keys = [k for k in keys if k in self.watch_filenames] or keys
            if keys:
                self._describe(keys[-1])
        finally:
            SESSION.end(raised=bool(getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)))
            self.pending.clear()

    def _describe(self, key: str) -> str:
        """Name the running unit by its compiled filename; its text as Python ran it."""
        import linecache

        source = "".join(linecache.getlines(key))
        SESSION.describe(key, source, cell=getattr(self.shell.compile, "_filename_map", {}).get(key))
        return source

    # the hook ----------------------------------------------------------------------
    def _handler(self, shell, etype, value, tb, tb_offset=None):
        mine = is_autograd_error(etype, str(value))
        if not mine and self.previous_handler is not None and issubclass(etype, self.previous_types):
            return self.previous_handler(etype, value, tb, tb_offset=tb_offset)
        shell.showtraceback((etype, value, _native(tb)), tb_offset=tb_offset, running_compiled_code=True)
        if not mine:
            return None
        try:
            report = self.pending.pop(id(value), None) or self.explain(value, tb)
            self.last_report = report
            show(report, shell)
        except Exception as exc:  # one line, never a second traceback
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
            print(text("ui.internal_error", error=reason), file=sys.stderr)
        finally:
            value = tb = None
        return None

    def _cell_filename(self, tb) -> str | None:
        cells = getattr(self.shell.compile, "_filename_map", {})
        found = None
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if tb.tb_frame.f_code.co_name == "<module>" and (name in cells or name in self.watch_filenames):
                found = name
            tb = tb.tb_next
        return found

    def run_watched(self, cell: str, lang: str | None = None, quiet: bool = False, ops: bool = False) -> None:
        """%%gradwatch: run `cell` in the user namespace under the watcher (statement marks, or
        with `ops` the per-op recorder)."""
        from .capture.marks import compile_unit
        from .capture.run import Run

        self.transforming_watched = True
        try:
            transformed = self.shell.transform_cell(cell)
        finally:
            self.transforming_watched = False
        count = self._running_count()
        filename = self.shell.compile.cache(transformed, count, raw_code=cell)
        code = compile_unit(transformed, filename, marked=not ops)
        self.watch_filenames.add(filename)
        SESSION.describe(filename, transformed, cell=count)
        run = Run(filename, transformed, self.shell.user_ns, top_code=code, in_session=True)
        try:
            with run:
                exec(code, self.shell.user_ns)
        except Exception as exc:
            try:
                self.pending[id(exc)] = analyze(run.capture, lang, cell_id=_cell_id(self.shell))
            except Exception:
                pass
            raise
        report = analyze(run.capture, lang, cell_id=_cell_id(self.shell))
        if report.findings:
            self.last_report = report
            show(report, self.shell)
        elif not quiet:
            print(text("ui.watch_clean", report.lang, calls=len(run.capture.backwards)))

    def _running_count(self) -> int:
        """The execution count of the cell running now: the one whose compiled file called us
        (`shell.execution_count` has already moved on to the next cell by then)."""
        cells = getattr(self.shell.compile, "_filename_map", {})
        frame = sys._getframe(1)
        while frame is not None:
            count = cells.get(frame.f_code.co_filename)
            if count is not None:
                return count
            frame = frame.f_back
        return max(1, self.shell.execution_count - 1)

    def explain(self, value, tb):
        from .capture.run import failure_capture

        filename = self._cell_filename(tb)
        source = self._describe(filename) if filename else ""
        return analyze(failure_capture(value, tb, filename or "", source), cell_id=_cell_id(self.shell))


def load(shell) -> None:
    global _active
    if _active is not None and _active.shell is shell:
        return
    _active = Extension(shell)
    _active.install()


def unload(shell) -> None:
    global _active
    if _active is not None and _active.shell is shell:
        _active.uninstall()
        _active = None


__all__ = ["load", "unload", "Extension", "is_user_file"]
