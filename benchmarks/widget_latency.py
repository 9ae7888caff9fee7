"""How long from an autograd error to the widget's first view (snapshot, explanation,
collapse, Graphviz layout, SVG), and how long expanding a block takes, for an MLP, a
residual CNN and an unrolled LSTMCell loop at about 100, 1,000 and 10,000 autograd nodes.

    python benchmarks/widget_latency.py [--json] [--sizes 100,1000,10000] [--watch]

Targets: first view < 0.5 s at 1,000 nodes and < 2 s at 10,000; any block < 1 s.
The error is a second backward through the same graph (nothing is retained); the LSTMCell
carries its state into a second batch. FIRST = snap (read_failure) + expl (pipeline.analyze)
+ widget (make_widget: payload, collapse, layout); coll and layout are that widget's parts,
timed again on their own. A warm-up case runs first so one-off imports are not counted."""
from __future__ import annotations

import argparse
import json
import sys
import time

import torch

from nb_autograd.capture.backwards import RECORDER
from nb_autograd.capture.failure import read_failure
from nb_autograd.capture.records import Capture
from nb_autograd.capture.run import register_source
from nb_autograd.pipeline import analyze
from nb_autograd.view.graph_view import GraphView
from nb_autograd.view.widget import make_widget

# Each model is cell code with a size knob SIZE; nodes per unit measured once with torch 2.13.
MODELS = {
    "mlp": (5, """\
import torch
layers = []
for _ in range(SIZE):
    layers += [torch.nn.Linear(8, 8), torch.nn.ReLU()]
net = torch.nn.Sequential(*layers)
loss = net(torch.randn(2, 8)).sum()
loss.backward()
loss.backward()
"""),
    "resnet": (16, """\
import torch
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.b1 = torch.nn.Conv2d(4, 4, 3, padding=1), torch.nn.BatchNorm2d(4)
        self.c2, self.b2 = torch.nn.Conv2d(4, 4, 3, padding=1), torch.nn.BatchNorm2d(4)
    def forward(self, x):
        return torch.relu(x + self.b2(self.c2(torch.relu(self.b1(self.c1(x))))))
net = torch.nn.Sequential(*[Block() for _ in range(SIZE)])
loss = net(torch.randn(1, 4, 4, 4)).sum()
loss.backward()
loss.backward()
"""),
    "lstmcell": (15, """\
import torch
cell = torch.nn.LSTMCell(8, 8)
h = c = torch.zeros(1, 8)
for step in range(2):
    for t in range(SIZE):
        h, c = cell(torch.randn(1, 8), (h, c))
    loss = h.sum()
    loss.backward()
"""),
}


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def run_case(model: str, target: int, watch: bool) -> dict:
    per_unit, template = MODELS[model]
    n = max(2, target // per_unit if model != "lstmcell" else target // (2 * per_unit))
    source = template.replace("SIZE", str(n))
    filename = f"<bench-{model}-{target}>"
    register_source(filename, source)
    watcher = None
    if watch:
        from nb_autograd.capture.watch import Watcher
        watcher = Watcher(filename)
    RECORDER.acquire()
    RECORDER.reset()
    row = {"model": model, "target": target}
    try:
        if watcher:
            watcher.start()
        try:
            exec(compile(source, filename, "exec"), {"__name__": "__main__"})
            raise SystemExit(f"{model}: no error raised")
        except RuntimeError as exc:
            if watcher:
                watcher.stop()
            origin = watcher.origin if watcher else None
            t0 = time.perf_counter()
            failure = read_failure(exc, exc.__traceback__, filename, source, RECORDER, origin)
            t_read = time.perf_counter() - t0
            capture = Capture(source, filename, failure, RECORDER.calls(filename), watched=watch)
            exc.__traceback__ = None
        report, t_explain = timed(lambda: analyze(capture, "en"))
        widget, t_widget = timed(lambda: make_widget(report))
    finally:
        if watcher:
            watcher.stop()
        RECORDER.reset()
        RECORDER.release()
    view, t_collapse = timed(lambda: GraphView(report.graph))
    first, t_layout = timed(lambda: view.draw("en"))
    blocks = [k for k, v in first["items"].items() if v["kind"] == "block"]
    worst = 0.0
    for key in blocks:
        view.expansion.start()
        _, t = timed(lambda: (view.handle("expand", key), view.draw("en")))
        worst = max(worst, t)
    view.expansion.start()
    full, t_all = timed(lambda: (view.handle("expand_all"), view.draw("en"))[1])
    row.update(nodes=len(report.graph.nodes), cause=report.top.cause if report.top else None,
               snapshot_s=t_read, explain_s=t_explain, collapse_s=t_collapse, layout_s=t_layout,
               widget_s=t_widget, first_view_s=t_read + t_explain + t_widget, items=first["shown"] + first["blocks"],
               blocks=len(blocks), worst_expand_s=worst, expand_all_s=t_all,
               expand_all_items=full["shown"] + full["blocks"], svg_kb=len(first["svg"]) / 1024,
               ok=bool(first["svg"]) and widget is not None)
    return row


def target_for(nodes: int) -> float:
    return 0.5 if nodes <= 2000 else 2.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object per case")
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--watch", action="store_true", help="record provenance (%%gradwatch) too")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    torch.manual_seed(0)
    run_case("mlp", 100, args.watch)  # warm-up: the first error pays one-off imports (rules, LibCST)
    rows = [run_case(m, int(s), args.watch) for m in args.models.split(",") for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        head = f"{'model':9} {'nodes':>6} {'snap':>6} {'expl':>6} {'widget':>6} {'coll':>6} {'layout':>6} {'FIRST':>6} " \
               f"{'items':>5} {'blocks':>6} {'expand':>6} {'all':>6} {'target'}"
        print(head)
        for r in rows:
            verdict = "ok" if r["first_view_s"] < target_for(r["nodes"]) and r["worst_expand_s"] < 1 else "SLOW"
            print(f"{r['model']:9} {r['nodes']:6d} {r['snapshot_s']:6.3f} {r['explain_s']:6.3f} {r['widget_s']:6.3f} {r['collapse_s']:6.3f} "
                  f"{r['layout_s']:6.3f} {r['first_view_s']:6.3f} {r['items']:5d} {r['blocks']:6d} "
                  f"{r['worst_expand_s']:6.3f} {r['expand_all_s']:6.3f} {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
