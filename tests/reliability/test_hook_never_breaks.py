"""Property: whatever reaches the hook, the native traceback shows, nothing escapes, the hook
stays installed, and an internal failure is at most one line."""
from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_cell

SYMPTOMS = [
    "Trying to backward through the graph a second time",
    "one of the variables needed for gradient computation has been modified by an inplace operation",
    "element 0 of tensors does not require grad and does not have a grad_fn",
    "grad can be implicitly created only for scalar outputs",
    "a leaf Variable that requires grad is being used in an in-place operation.",
    "Can't call numpy() on Tensor that requires grad.",
    "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
    "",
]
EXCEPTIONS = ["RuntimeError", "NotImplementedError", "RecursionError", "ValueError", "TypeError", "KeyError"]
text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300)
settings.register_profile("hook", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _assert_healthy(shell, out: str, err: str, message_head: str) -> None:
    assert "Custom TB Handler failed" not in out + err
    assert shell.CustomTB.__func__.__name__ == "wrapped"  # IPython did not unregister the chain
    assert len([l for l in err.splitlines() if "nb_autograd could not explain" in l]) <= 1
    if message_head:
        assert message_head in out


@settings(settings.get_profile("hook"))
@given(kind=st.sampled_from(EXCEPTIONS), symptom=st.sampled_from(SYMPTOMS), extra=text,
       prelude=st.lists(text, max_size=5))
def test_arbitrary_exceptions_and_messages(shell, kind, symptom, extra, prelude):
    message = symptom + extra
    comment_lines = "".join(f"# {line!r}\n" for line in prelude)
    code = f"{comment_lines}raise {kind}({message!r})\n"
    result, out, err = run_cell(shell, code)
    assert type(result.error_in_exec).__name__ == kind
    head = next((l for l in message.splitlines() if l.strip() and l.isprintable()), "")[:40]
    _assert_healthy(shell, out, err, head if kind != "KeyError" else "")


@settings(settings.get_profile("hook"))
@given(junk=st.text(alphabet=string.printable, max_size=400))
def test_cells_that_do_not_parse(shell, junk):
    result, out, err = run_cell(shell, "x = (\n" + junk)
    _assert_healthy(shell, out, err, "")


def test_huge_cell_and_non_utf8_text(shell):
    body = "\n".join(f"v{i} = {i}" for i in range(20_000))
    code = body + "\nimport torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n"
    _, out, err = run_cell(shell, code)
    assert "[double_backward]" in out
    _assert_healthy(shell, out, err, "backward through the graph")
    weird = "s = b'\\xff\\xfe'.decode('latin-1')\nraise RuntimeError('Trying to backward through the graph a second time ' + s)\n"
    _, out, err = run_cell(shell, weird)
    _assert_healthy(shell, out, err, "Trying to backward")


BROKEN_GRAPHS = {
    "custom_function": """
import torch
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g
w = torch.ones(3, requires_grad=True)
loss = Square.apply(w).sum()
loss.backward()
loss.backward()
""",
    "tensor_hooks": """
import torch
w = torch.ones(3, requires_grad=True)
h = w.exp()
h.register_hook(lambda g: g * 2)
loss = (h * h).sum()
loss.backward()
loss.backward()
""",
    "tensor_subclass": """
import torch
class Tagged(torch.Tensor):
    pass
w = torch.ones(3, requires_grad=True)
x = (w * 2).as_subclass(Tagged)
loss = x.sin().sum()
loss.backward()
loss.backward()
""",
    "thread": """
import threading, torch
w = torch.ones(3, requires_grad=True)
loss = w.exp().sum()
loss.backward()
errors = []
def worker():
    try:
        loss.backward()
    except RuntimeError as e:
        errors.append(e)
t = threading.Thread(target=worker); t.start(); t.join()
raise errors[0]
""",
    "compiled_module": """
import torch
net = torch.compile(torch.nn.Linear(3, 3), backend="eager")
loss = net(torch.ones(2, 3)).pow(2).sum()
loss.backward()
loss.backward()
""",
    "graph_deleted_mid_way": """
import torch
w = torch.ones(3, requires_grad=True)
loss = w.exp().sum()
loss.backward()
del w
loss.backward()
""",
}


def test_broken_graphs(shell):
    for name, code in BROKEN_GRAPHS.items():
        result, out, err = run_cell(shell, code)
        assert isinstance(result.error_in_exec, RuntimeError), name
        _assert_healthy(shell, out, err, "backward through the graph a second time")
        assert "nb_autograd" in out, f"{name}: no explanation"
