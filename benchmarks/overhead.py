"""What `%%gradwatch` costs: small real training loops (an MLP, a small CNN, an LSTM, an
unrolled LSTMCell, a transformer block) run plain, with the extension loaded (the hook's
backward recorder only), under the watcher (`%%gradwatch`: statement marks; `--ops`: the
per-op recorder), and under torch.autograd.detect_anomaly,
interleaved in one process after a warm-up; prints the median of the paired ratios to the
plain run (`--json` keeps to plain/gradwatch/ops/anomaly, plus the device). On CUDA, when one is
present, the same loops run on the GPU and are timed by wall clock after a synchronize (CPU
time says nothing about asynchronous kernels); on CPU, by process time (the machine is shared).

    python benchmarks/overhead.py [--reps 9] [--steps 30] [--device auto|cpu|cuda] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings

import torch
from torch import nn

from nb_autograd.capture.backwards import RECORDER
from nb_autograd.capture.marks import compile_marked
from nb_autograd.capture.watch import Watcher


def mlp():
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    return model, lambda: (torch.randn(64, 256), torch.randint(0, 10, (64,)))


def cnn():
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                          nn.Flatten(), nn.Linear(32, 10))
    return model, lambda: (torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,)))


class _LSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(32, 64, batch_first=True)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def lstm():
    return _LSTM(), lambda: (torch.randn(16, 35, 32), torch.randint(0, 10, (16,)))


class _LSTMCellLoop(nn.Module):
    """The recurrence written out by hand: one cell call (and its ops) per time step."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(32, 64)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        h = c = torch.zeros(x.shape[0], 64, device=x.device)
        for t in range(x.shape[1]):
            h, c = self.cell(x[:, t], (h, c))
        return self.head(h)


def lstmcell():
    return _LSTMCellLoop(), lambda: (torch.randn(16, 35, 32), torch.randint(0, 10, (16,)))


class _Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0, batch_first=True)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        return self.head(self.block(x).mean(1))


def transformer():
    return _Transformer(), lambda: (torch.randn(16, 32, 64), torch.randint(0, 10, (16,)))


WORKLOADS = {"mlp": mlp, "cnn": cnn, "lstm": lstm, "lstmcell": lstmcell, "transformer": transformer}
DEVICE = torch.device("cpu")


def train(model, batch, steps: int) -> float:
    """An ordinary training loop; this file is the 'cell' the watcher records."""
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    total = 0.0
    for _ in range(steps):
        x, y = (t.to(DEVICE) for t in batch())
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()
    return total


def _marked_copy(device: torch.device) -> dict:
    """This file compiled as `%%gradwatch` compiles a cell (statement marks): its models and
    `train` then report each statement they run, the worst case for the watcher. The copy's
    functions read their own globals, so the device is set in that namespace."""
    with open(__file__, encoding="utf-8") as f:
        namespace = {"__name__": "overhead_marked", "__file__": __file__}
        exec(compile_marked(f.read(), __file__), namespace)
    namespace["DEVICE"] = device
    return namespace


MARKED: dict = {}


def run(kind: str, name: str, steps: int) -> float:
    torch.manual_seed(0)
    marked = kind == "gradwatch"
    model, batch = (MARKED if marked else globals())["WORKLOADS"][name]()
    model = model.to(DEVICE)
    clock = time.perf_counter if DEVICE.type == "cuda" else time.process_time  # CPU time: the machine is shared
    sync()
    start = clock()
    if kind == "plain":
        train(model, batch, steps)
    elif kind == "hook":
        RECORDER.acquire()
        try:
            train(model, batch, steps)
        finally:
            RECORDER.release()
    elif kind in ("gradwatch", "ops"):
        loop = MARKED["train"] if marked else train
        watcher = Watcher(__file__, top_code=loop.__code__)
        RECORDER.reset()
        watcher.start()
        try:
            loop(model, batch, steps)
        finally:
            watcher.stop()
        watcher.silent_findings(RECORDER.calls(__file__), {"model": model})
        RECORDER.reset()
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.detect_anomaly():
                train(model, batch, steps)
    sync()
    return clock() - start


def sync() -> None:
    if DEVICE.type == "cuda":
        torch.cuda.synchronize()


def measure(reps: int, steps: int) -> dict:
    kinds = ("plain", "hook", "gradwatch", "ops", "anomaly")
    out = {}
    for name in WORKLOADS:
        for kind in kinds:  # warm-up
            run(kind, name, steps)
        times = {k: [] for k in kinds}
        for rep in range(reps):
            order = kinds[rep % len(kinds):] + kinds[:rep % len(kinds)]  # no mode always goes first
            for kind in order:
                times[kind].append(run(kind, name, steps))
        ratio = lambda k: statistics.median(t / p for t, p in zip(times[k], times["plain"]))  # noqa: E731
        out[name] = {"plain_s": statistics.median(times["plain"]), "hook_ratio": ratio("hook"),
                     "gradwatch_ratio": ratio("gradwatch"), "ops_ratio": ratio("ops"), "anomaly_ratio": ratio("anomaly")}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    global DEVICE
    DEVICE = torch.device("cuda" if args.device == "cuda" or args.device == "auto" and torch.cuda.is_available()
                          else "cpu")
    torch.set_num_threads(args.threads)
    MARKED.update(_marked_copy(DEVICE))
    results = measure(args.reps, args.steps)
    if args.json:
        keys = ("plain_s", "gradwatch_ratio", "ops_ratio", "anomaly_ratio")
        print(json.dumps({"device": DEVICE.type,
                          "workloads": {n: {k: r[k] for k in keys} for n, r in results.items()}}))
        return 0
    where = "CUDA, wall time" if DEVICE.type == "cuda" else "CPU time; no CUDA device here"
    print(f"{'workload':<12}{'plain (s)':>12}{'hook':>10}{'gradwatch':>12}{'--ops':>10}{'anomaly':>12}   ({args.steps} steps, "
          f"{args.reps} reps, median ratio to plain, {where})")
    for name, r in results.items():
        print(f"{name:<12}{r['plain_s']:>12.3f}{r['hook_ratio']:>9.2f}x{r['gradwatch_ratio']:>11.2f}x{r['ops_ratio']:>9.2f}x"
              f"{r['anomaly_ratio']:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
