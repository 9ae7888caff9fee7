"""One operation read tensors on two devices (a model moved to the GPU and its input not,
or `x.to(device)` whose result was thrown away)."""
from __future__ import annotations

from ...evidence import Evidence
from ...evidence.errors import read_errors
from ...fixes.plan import plan
from ..base import Example, Hit

CAUSE = "device_mismatch"
SYMPTOM = "device_mismatch"
CUDA = ("cuda",)

BAD = (
    Example(code="""\
import torch
device = "cuda"
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(3, 4)
out = model(x)
""", line=5, needs=CUDA, fixed="""\
import torch
device = "cuda"
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(3, 4)
out = model(x.to(device))
"""),
    Example(code="""\
import torch
device = "cuda"
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(3, 4)
x.to(device)
out = model(x)
""", line=5, needs=CUDA, fixed="""\
import torch
device = "cuda"
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(3, 4)
x = x.to(device)
out = model(x)
"""),
    Example(code="""\
import torch
device = "cuda"
class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)
        self.offset = torch.ones(3)

    def forward(self, x):
        return self.fc(x) + self.offset

scaler = Scaler().to(device)
for step in range(2):
    y = scaler(torch.randn(2, 3, device=device))
""", line=10, needs=CUDA, note="a plain tensor attribute is not moved by Module.to (a buffer would be)", fixed="""\
import torch
device = "cuda"
class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)
        self.offset = torch.ones(3)

    def forward(self, x):
        return self.fc(x) + self.offset.to(device)

scaler = Scaler().to(device)
for step in range(2):
    y = scaler(torch.randn(2, 3, device=device))
"""),
)

GOOD = (
    Example(code="""\
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(3, 4).to(device)
model(x).sum().backward()
"""),
    Example(code="""\
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 2)
model.to(device)
out = model(torch.randn(3, 4, device=device))
"""),
)


def _is_module(ev: Evidence, name: str) -> bool:
    return any(a.call and a.call.rpartition(".")[2][:1].isupper() for a in ev.code.assigns_to(name))


def _devices(ev: Evidence) -> tuple[str, str]:
    """(device of the tensor left behind, device of the rest): cpu is the usual straggler."""
    a, b = ev.symptom.get("device_a", "?"), ev.symptom.get("device_b", "?")
    return (b, a) if b == "cpu" else (a, b)


def match(ev: Evidence) -> Hit | None:
    if ev.line is None:
        return None
    facts = read_errors(ev.capture.source)
    kept = [m for m in facts.moves if m[3]]
    device = next((m[2] for m in facts.moves), "device")
    read_here = [n for n, line in ev.code.reads if line == ev.line and ev.code.assigns_to(n)]
    mine, other = _devices(ev)
    base = {"line": str(ev.line), "device": device, "name_device": mine, "other_device": other,
            "device_a": ev.symptom.get("device_a", "?"), "device_b": ev.symptom.get("device_b", "?")}
    for line, name, dev, result_kept in facts.moves:
        if not result_kept and name in read_here and not _is_module(ev, name):
            return Hit(CAUSE, line, 0.9, variant="discarded", related=(("use", ev.line),),
                       facts=tuple({**base, "name": name, "made_line": str(line), "move": ev.code.line_text(line)}.items()))
    moved = {m[1] for m in kept} | {m[1] for m in facts.moves if _is_module(ev, m[1])}
    stale = [n for n in read_here if n not in moved and "." not in n.rpartition(".")[0] and n != "device"
             and not any("device" in ev.code.line_text(a.line) for a in ev.code.assigns_to(n))]
    if not stale:
        return Hit(CAUSE, ev.line, 0.5, facts=tuple(base.items()))
    name = stale[-1]
    made = max(a.line for a in ev.code.assigns_to(name))
    variant = "module" if _is_module(ev, name) else "at_use"
    return Hit(CAUSE, ev.line, 0.85, variant=variant, related=(("created", made),),
               facts=tuple({**base, "name": name, "made_line": str(made)}.items()))


def plans(hit: Hit, ev: Evidence) -> list:
    device, made = hit.fact("device"), int(hit.fact("made_line") or 0)
    plans = []
    if hit.variant == "discarded":
        plans.append(plan("to_device", title="keep_to_result", line=hit.line, device=device))
    elif hit.variant == "at_use":
        plans.append(plan("to_device", title="to_device_at_use", line=hit.line, device=device, name=hit.fact("name")))
    if made and hit.variant != "discarded":
        plans.append(plan("to_device", title="to_device_at_creation", line=made, device=device))
    return list(plans)
