"""A statistic a module keeps across steps (a running mean, an EMA buffer) is updated from this
step's graph: `self.running_mean.mul_(0.9).add_(mean * 0.1)` chains every step's graph into
the buffer. Detach what the update reads from the step (`mean` -> `mean.detach()`), at each
given line, leaving the module's own attributes (`self.*`) as they are."""
from __future__ import annotations

import re

import libcst as cst

from .add_detach import add_detach_each
from .cst import code_of, facts_of, load


# a count, not a tensor (`total_samples += batch_size`): nothing to detach
COUNT = re.compile(r"(^|_)(n|num|count|size|samples|steps?|bs|idx|i|j|k)$")


def detach_statistics(source: str, lines: tuple[int, ...]) -> str | None:
    tree = load(source)
    edits = []
    for line in lines:
        stmt = tree and tree.statement(line)
        if stmt is None:
            return None
        facts = facts_of([stmt])
        read = {n for a in facts.assigns for n in a.reads} | {n for c in facts.calls for n in c.arg_names}
        function = tree.enclosing(stmt, cst.FunctionDef)
        # tensors of this step: what the method computed itself (`mean, var = x.mean(0), x.var(0)`),
        # not its arguments (`decay`) or settings (`self.momentum`)
        made = {t for a in facts_of([function]).assigns for t in a.targets} if function else set()
        keyed = {t.split("[")[0] for t in made if "['" in t or '["' in t}  # `log['prediction'] = ...`: a dict
        text = code_of(stmt)
        done = {n for n in keyed if text.count(n + ".items()") == len(re.findall(rf"\b{n}\b", text))}  # detached already
        grown = {t for a in facts.assigns for t in a.targets}  # the total itself is not a tensor of this step
        step = tuple(sorted(n for n in (read & made) - grown if "." not in n and n not in done and not COUNT.search(n)))
        if step:
            edits.append((line, step, True, keyed & set(step)))
    return add_detach_each(source, edits) if edits else None
