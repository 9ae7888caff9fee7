"""What `%%gradwatch` costs: small real CPU training loops (an MLP, a small CNN, an LSTM) run
plain, with the extension loaded (the hook's backward recorder only), under the watcher, and
under torch.autograd.detect_anomaly, interleaved in one process after a warm-up; prints the
median of the paired ratios to the plain run (`--json` keeps to plain/gradwatch/anomaly).

    python benchmarks/overhead.py [--reps 9] [--steps 30] [--json]
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


WORKLOADS = {"mlp": mlp, "cnn": cnn, "lstm": lstm}


def train(model, batch, steps: int) -> float:
    """An ordinary training loop; this file is the 'cell' the watcher records."""
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    total = 0.0
    for _ in range(steps):
        x, y = batch()
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()
    return total


def run(kind: str, make, steps: int) -> float:
    torch.manual_seed(0)
    model, batch = make()
    start = time.process_time()  # CPU time: the machine is shared, wall time is noise
    if kind == "plain":
        train(model, batch, steps)
    elif kind == "hook":
        RECORDER.acquire()
        try:
            train(model, batch, steps)
        finally:
            RECORDER.release()
    elif kind == "gradwatch":
        watcher = Watcher(__file__, top_code=train.__code__)
        RECORDER.reset()
        watcher.start()
        try:
            train(model, batch, steps)
        finally:
            watcher.stop()
        watcher.silent_findings(RECORDER.calls(__file__), {"model": model})
        RECORDER.reset()
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.detect_anomaly():
                train(model, batch, steps)
    return time.process_time() - start


def measure(reps: int, steps: int) -> dict:
    kinds = ("plain", "hook", "gradwatch", "anomaly")
    out = {}
    for name, make in WORKLOADS.items():
        for kind in kinds:  # warm-up
            run(kind, make, steps)
        times = {k: [] for k in kinds}
        for rep in range(reps):
            order = kinds[rep % len(kinds):] + kinds[:rep % len(kinds)]  # no mode always goes first
            for kind in order:
                times[kind].append(run(kind, make, steps))
        ratio = lambda k: statistics.median(t / p for t, p in zip(times[k], times["plain"]))  # noqa: E731
        out[name] = {"plain_s": statistics.median(times["plain"]), "hook_ratio": ratio("hook"),
                     "gradwatch_ratio": ratio("gradwatch"), "anomaly_ratio": ratio("anomaly")}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    results = measure(args.reps, args.steps)
    if args.json:
        keys = ("plain_s", "gradwatch_ratio", "anomaly_ratio")
        print(json.dumps({"workloads": {n: {k: r[k] for k in keys} for n, r in results.items()}}))
        return 0
    print(f"{'workload':<10}{'plain (s)':>12}{'hook':>10}{'gradwatch':>12}{'anomaly':>12}   ({args.steps} steps, "
          f"{args.reps} reps, median ratio to plain, CPU time)")
    for name, r in results.items():
        print(f"{name:<10}{r['plain_s']:>12.3f}{r['hook_ratio']:>9.2f}x{r['gradwatch_ratio']:>11.2f}x"
              f"{r['anomaly_ratio']:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
