"""read_stored_grads: grad() of parameters after backward() reads their .grad; never for a
single tensor (iterating it would be wrong) or for create_graph / grad_outputs."""
from nb_autograd.fixes.read_stored_grads import read_stored_grads


def test_list_name_and_literal():
    src = "params = list(m.parameters())\ngrads = torch.autograd.grad(loss, params)\n"
    assert read_stored_grads(src, line=2) == "params = list(m.parameters())\ngrads = [p.grad for p in params]\n"
    assert read_stored_grads("g = torch.autograd.grad(loss, [w, b])\n", line=1) == "g = (w.grad, b.grad, )\n"


def test_idempotent_and_safe():
    out = read_stored_grads("g = torch.autograd.grad(loss, m.parameters())\n", line=1)
    assert out == "g = [p.grad for p in m.parameters()]\n" and read_stored_grads(out, line=1) is None
    assert read_stored_grads("w = torch.randn(3)\ng = torch.autograd.grad(loss, w)\n", line=2) is None
    assert read_stored_grads("g = torch.autograd.grad(loss, [w], create_graph=True)\n", line=1) is None
    assert read_stored_grads("g = torch.autograd.grad(loss, [w], torch.ones(1))\n", line=1) is None
