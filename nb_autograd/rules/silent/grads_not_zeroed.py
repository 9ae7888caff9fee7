"""backward() runs on several steps but nothing zeroes .grad between optimizer steps, so
each step applies the sum of all gradients so far (unintended accumulation)."""
from __future__ import annotations

from ...capture.silent import GradsAccumulated
from ...evidence import Evidence
from ..base import Example, Hit

CAUSE = "grads_not_zeroed"
SYMPTOM = "silent"

BAD = (
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
""", line=7, fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.zero_grad()
for epoch in range(2):
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()
""", line=5, note="zero_grad once, before the loop", fixed="""\
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.zero_grad()
for epoch in range(2):
    for step in range(3):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""),
)

GOOD = (
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
"""),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
accumulate = 4
for step in range(8):
    loss = model(torch.randn(16, 8)).pow(2).mean() / accumulate
    loss.backward()
    if (step + 1) % accumulate == 0:
        opt.step()
        opt.zero_grad()
""", note="deliberate gradient accumulation"),
    Example(code="""\
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    opt.step()
    for p in model.parameters():
        p.grad = None
"""),
)


def _optimizer_name(ev: Evidence, line: int | None) -> str:
    call = next((c for c in ev.code.calls if c.line == line and c.func.endswith(".step") and c.receiver), None)
    return call.receiver if call else "optimizer"


def match(ev: Evidence) -> Hit | None:
    found = next((o for o in ev.capture.silent if isinstance(o, GradsAccumulated)), None)
    if found is None:
        return None
    backward = found.backward_line or found.step_line
    name = _optimizer_name(ev, found.step_line)
    outside = _zeroed_outside(ev, name, backward)
    line = outside or backward
    return Hit(CAUSE, line, 0.8, facts=(("name", name), ("line", str(line)), ("step_line", str(found.step_line)),
                                        ("steps", str(found.steps)), ("backward_line", str(backward))),
               related=(("step", found.step_line),) if found.step_line else (),
               variant="zeroed_outside" if outside else "")


def _zeroed_outside(ev: Evidence, name: str, backward: int | None) -> int | None:
    """`optimizer.zero_grad()` written once before the loop that runs the backwards (once per
    epoch, or once before training): that call, in the wrong place, is the root."""
    loops = ev.code.loops_at(backward) if backward else ()
    if not loops:
        return None
    inner = loops[-1]
    function = ev.code.function_at(backward)
    calls = [c.line for c in ev.code.calls if c.func == name + ".zero_grad" and c.line < inner.line
             and not inner.contains(c.line) and ev.code.function_at(c.line) == function]
    return calls[-1] if calls else None


def plans(hit: Hit, ev: Evidence) -> list:
    """Zero the gradients right before the backward, in the same block: every step then applies
    only its own gradient (where the step is deliberate accumulation, the rule does not fire)."""
    from ...fixes.plan import plan

    return [plan("add_zero_grad", backward_line=int(hit.fact("backward_line")), optimizer=hit.fact("name"),
                 facts={"name": hit.fact("name")})]
