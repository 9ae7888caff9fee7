"""add_retain_graph: on backward() and autograd.grad(), never twice, never a guessed position."""
from nb_autograd.fixes.add_retain_graph import add_retain_graph


def test_adds_the_keyword():
    assert add_retain_graph("loss.backward()  # first\n", line=1) == "loss.backward(retain_graph=True)  # first\n"
    assert add_retain_graph("(g,) = torch.autograd.grad(loss, w)\n", line=1) == \
        "(g,) = torch.autograd.grad(loss, w, retain_graph=True)\n"
    assert add_retain_graph("loss.backward(retain_graph=False)\n", line=1) == "loss.backward(retain_graph=True)\n"


def test_idempotent_and_safe():
    assert add_retain_graph("loss.backward(retain_graph=True)\n", line=1) is None
    assert add_retain_graph("loss.backward(g, False)\n", line=1) is None  # positional retain_graph
    assert add_retain_graph("print(loss)\n", line=1) is None
    assert add_retain_graph("a.backward(); b.backward()\n", line=1) is None
