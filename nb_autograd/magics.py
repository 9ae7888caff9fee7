"""The magics a user types: %%gradwatch / %gradwatch on|off, %gradfix, %nb_autograd lang.
Each parses its line with IPython's magic_arguments and hands the work to the Extension."""
from __future__ import annotations

from typing import TYPE_CHECKING

from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .i18n import current_language, set_language, text

if TYPE_CHECKING:
    from .ipython import Extension


@magics_class
class GradMagics(Magics):
    def __init__(self, shell, extension: Extension):
        super().__init__(shell)
        self.extension = extension

    @magic_arguments()
    @argument("setting", choices=["lang"], help="what to set")
    @argument("value", choices=["zh", "en", "auto"], help="the explanation language (auto: from the locale)")
    @line_magic
    def nb_autograd(self, line: str = ""):
        """Choose the explanation language."""
        args = parse_argstring(self.nb_autograd, line)
        set_language(None if args.value == "auto" else args.value)
        print(f"nb_autograd: language {current_language()}")

    @magic_arguments()
    @argument("words", nargs="*", metavar="[N] [replace]",
              help="fix N of the last diagnosis (default 1); `replace` replaces this cell instead of inserting below")
    @argument("--write", action="store_true", help="a fix for a user file: write the file (its diff is shown first)")
    @line_magic
    def gradfix(self, line: str = ""):
        """Put a fix of the last diagnosis into the notebook (or, with --write, into its file)."""
        from .fixes.apply import gradfix_magic

        args = parse_argstring(self.gradfix, line)
        gradfix_magic(self.shell, self.extension.last_report, " ".join(args.words + ["--write"] * args.write))

    @magic_arguments()
    @argument("mode", choices=["on", "off"], nargs="?", help="watch every cell from now on (on) or stop (off); "
                                                             "without it, say which")
    @line_magic("gradwatch")
    def gradwatch_line(self, line: str = ""):
        """%gradwatch on|off: run every cell under the watcher (as if it began with
        `%%gradwatch --quiet`), so the next error is explained with exact provenance."""
        args = parse_argstring(self.gradwatch_line, line)
        if args.mode is not None:
            self.extension.watch_every_cell(args.mode == "on")
        print(text("ui.watch_every_cell_" + ("on" if self.extension.watching_every_cell else "off")))

    @magic_arguments()
    @argument("--lang", choices=["zh", "en"], help="the explanation's language for this cell")
    @argument("--quiet", action="store_true", help="say nothing when no problem is seen")
    @argument("--ops", action="store_true", help="record every torch op (slower): also names the line inside "
                                                 "an imported module of yours that made a node")
    @cell_magic
    def gradwatch(self, line: str, cell: str):
        """Run the cell under the watcher: which line and iteration made each autograd node, and
        the silent problems (graphs kept alive, gradients not zeroed) even when nothing raises."""
        args = parse_argstring(self.gradwatch, line)
        self.extension.run_watched(cell, lang=args.lang, quiet=args.quiet, ops=args.ops)
