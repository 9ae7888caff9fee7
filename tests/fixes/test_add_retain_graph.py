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


def test_several_calls_of_one_pass_all_or_none():
    src = "g1 = torch.autograd.grad(a, w)[0]\ng2 = torch.autograd.grad(b, w, retain_graph=True)[0]\nloss.backward()\n"
    assert add_retain_graph(src, lines=(1, 2)) == src.replace("(a, w)", "(a, w, retain_graph=True)")
    assert add_retain_graph(src, lines=(1, 3)) == src.replace("(a, w)", "(a, w, retain_graph=True)").replace(
        "loss.backward()", "loss.backward(retain_graph=True)")
    assert add_retain_graph(src, lines=(1, 4)) is None  # line 4 holds no call: nothing changes
