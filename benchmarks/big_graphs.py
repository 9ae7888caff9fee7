"""Big autograd graphs in real kernels: the failing cell's extra time over a plain kernel, and
the widget's payload and first view, for graphs of 10^3 to 10^6 nodes in five shapes.

    python benchmarks/big_graphs.py [--json] [--nodes 1000,10000,100000,1000000]
                                    [--shapes chain,...] [--reps 3]
    python benchmarks/big_graphs.py --depth   # how many touched nodes a thread's stack frees

Two fresh kernels run the same cells, one plain and one with `%load_ext nb_autograd`; both
warm their first-error path on a small graph first. Each rep builds the graph and fails on a
second backward; the extra time is the median over reps of (cell time with the extension -
cell time without), cells interleaved. The widget's payload (the JSON it syncs) and its first
view (make_widget: explanation, collapse, layout, SVG) are measured inside the extension's
kernel from `nb_autograd.last_report()`.

Targets (issue 16): at most +0.15 s up to 10^4 steps of the chain, +0.5 s at 10^5; widget first
view at most 0.5 s at 10^5 nodes."""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap

from nb_autograd.kernel import Kernel

# cell code with STEPS; nodes per step measured with torch 2.13 (graph of `loss`)
SHAPES = {
    "chain": (2, """\
x = torch.ones(8, requires_grad=True)
h = x
for _ in range(STEPS):
    h = torch.tanh(h * 1.0001)
loss = h.sum()
"""),
    "rnn_cell": (5, """\
W = torch.randn(8, 8, requires_grad=True); U = torch.randn(8, 8, requires_grad=True)
h = torch.zeros(1, 8)
xs = torch.randn(STEPS, 1, 8)
for t in range(STEPS):
    h = torch.tanh(xs[t] @ W + 0.1 * (h @ U))
loss = h.pow(2).sum()
"""),
    "ode": (5, """\
k = torch.tensor(2.0, requires_grad=True)
x, v, dt = torch.ones(4), torch.zeros(4), 0.001
for _ in range(STEPS):
    v = v - dt * k * x
    x = x + dt * v
loss = x.pow(2).sum()
"""),
    "dataset_sum": (7, """\
model = torch.nn.Linear(4, 1)
data = torch.randn(STEPS, 4); target = torch.randn(STEPS, 1)
loss = 0
for i in range(STEPS):
    loss = loss + ((model(data[i]) - target[i]) ** 2).mean()
"""),
    "lstmcell": (16, """\
cell = torch.nn.LSTMCell(4, 4)
h = c = torch.zeros(1, 4)
xs = torch.randn(STEPS, 1, 4)
for t in range(STEPS):
    h, c = cell(xs[t], (h, c))
loss = h.sum()
"""),
}
FAIL = "loss.backward()\nloss.backward()\n"
WARM = "import torch\n_w = torch.ones(2, requires_grad=True)\n_l = (_w * 2).sum()\n_l.backward()\n_l.backward()\n"
MEASURE_WIDGET = """\
import time, json
from nb_autograd.view.widget import make_widget
_r = nb_autograd.last_report()
_t = time.perf_counter(); _w = make_widget(_r); _first = time.perf_counter() - _t
_state = {"view": _w.view, "graph": _w.graph} if _w is not None else {}
print(json.dumps({"first_view_s": _first, "payload_bytes": len(json.dumps(_state)),
                  "nodes_read": len(_r.graph.nodes) if _r.graph else 0,
                  "unread": _r.graph.unread if _r.graph else 0,
                  "cause": _r.top.cause if _r.top else None}))
del _w, _r, _state
"""


def cell(shape: str, nodes: int) -> str:
    per_step, code = SHAPES[shape]
    return code.replace("STEPS", str(max(1, nodes // per_step))) + FAIL


def measure(shapes, sizes, reps: int) -> list[dict]:
    rows = []
    with Kernel() as plain, Kernel() as ext:
        ext.run("%load_ext nb_autograd\nimport nb_autograd")
        for k in (plain, ext):
            k.run(WARM)
            k.run("raise ValueError('flush the last traceback')")
        for shape in shapes:
            for nodes in sizes:
                code = cell(shape, nodes)
                extra, widget = [], {}
                for _ in range(reps):
                    p = plain.run(code, timeout=1200)
                    e = ext.run(code, timeout=1200)
                    if e.died or p.died:
                        raise SystemExit(f"a kernel died at {shape} {nodes}")
                    extra.append(e.seconds - p.seconds)
                    widget = json.loads(ext.run(MEASURE_WIDGET).stdout or "{}")
                    for k in (plain, ext):  # drop the graph (and IPython's last traceback)
                        k.run("loss = h = x = None\nimport gc; gc.collect()\nraise ValueError('flush')")
                rows.append({"shape": shape, "nodes": nodes, "extra_s": round(statistics.median(extra), 3),
                             "plain_s": round(p.seconds, 3), **widget})
                print(rows[-1], file=sys.stderr)
        rows.append({"alive": ext.alive() and plain.alive()})
    return rows


DEPTH_PROBE = """\
import sys, torch
steps, touch = int(sys.argv[1]), int(sys.argv[2])
h = torch.ones(8, requires_grad=True)
for _ in range(steps):
    h = torch.tanh(h * 1.0001)
node, n = h.grad_fn, 0
while node is not None and n < touch:
    n += 1
    node = next((c for c, _ in node.next_functions if c is not None), None)
node = None
del h
print("freed")
"""


def depth() -> dict:
    """Bisect the number of touched chain nodes whose teardown overflows this stack."""
    import resource

    def survives(touched: int) -> bool:
        p = subprocess.run([sys.executable, "-c", DEPTH_PROBE, str(touched), str(touched)], capture_output=True, text=True)
        return p.returncode == 0 and "freed" in p.stdout

    low, high = 1_000, 2_000_000
    if survives(high):
        return {"crash_at": None, "note": "no crash up to 2,000,000 touched nodes"}
    while high - low > 1_000:
        mid = (low + high) // 2
        low, high = (mid, high) if survives(mid) else (low, mid)
    stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
    return {"stack_bytes": stack, "crash_at_touched_nodes": high, "bytes_per_node": round(stack / high)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--depth", action="store_true")
    ap.add_argument("--nodes", default="1000,10000,100000,1000000")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    if args.depth:
        print(json.dumps(depth(), indent=2))
        return 0
    rows = measure(args.shapes.split(","), [int(n) for n in args.nodes.split(",")], args.reps)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'shape':12} {'nodes':>9} {'extra s':>8} {'plain s':>8} {'first view s':>12} {'payload KB':>10} {'read':>6} {'unread':>7}  cause")
    for r in rows[:-1]:
        print(f"{r['shape']:12} {r['nodes']:>9,} {r['extra_s']:>8.3f} {r['plain_s']:>8.2f} {r.get('first_view_s', 0):>12.3f} "
              f"{r.get('payload_bytes', 0) / 1024:>10.1f} {r.get('nodes_read', 0):>6} {r.get('unread', 0):>7}  {r.get('cause')}")
    print("kernels alive:", rows[-1]["alive"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
