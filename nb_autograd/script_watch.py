"""`with nb_autograd.watch():` in a script: the block runs through the capture seam like a
cell under `%%gradwatch`; on exit the findings (or the explanation of an error raised
inside) are printed and kept in `.report`."""
from __future__ import annotations

import linecache
import sys

from .capture.run import Run
from .i18n import text
from .pipeline import analyze
from .view.text import render


class ScriptWatch:
    def __init__(self, frame, lang: str | None = None, quiet: bool = False, file=None):
        self._frame = frame
        self.filename = frame.f_code.co_filename
        self.lang, self.quiet, self.file = lang, quiet, file
        self.report = None
        self._run = Run(self.filename, "".join(linecache.getlines(self.filename)), top_code=frame.f_code)

    def __enter__(self):
        self._run.__enter__()
        return self

    def __exit__(self, etype, value, tb):
        run, frame, self._frame = self._run, self._frame, None
        try:
            if frame is not None and value is None:
                run.namespace = {**frame.f_globals, **frame.f_locals}
            run.__exit__(etype, value, tb)
            self.report = analyze(run.capture, self.lang) if run.capture is not None else None
            if self.report is None:
                return False
            if self.report.diagnoses or self.report.findings:
                print(render(self.report), file=self.file or sys.stderr)
            elif not self.quiet and value is None:
                print(text("ui.watch_clean", self.report.lang, calls=len(run.capture.backwards)),
                      file=self.file or sys.stderr)
        finally:
            run.close()
            frame = value = tb = None
        return False

    @property
    def findings(self) -> tuple:
        return self.report.findings if self.report else ()


def watch(*, lang: str | None = None, quiet: bool = False, file=None) -> ScriptWatch:
    """`with nb_autograd.watch():` in a script: watch the block, then print what was found."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "nb_autograd":
        frame = frame.f_back
    return ScriptWatch(frame, lang=lang, quiet=quiet, file=file)
