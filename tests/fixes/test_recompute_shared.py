"""recompute_shared: the second loss's reads of the shared tensor become the expression that made it."""
from nb_autograd.fixes.recompute_shared import recompute_shared

SAM = "output = model(images)\nloss = criterion(output, target)\nloss.backward()\nopt.first_step()\ncriterion(output, target).backward()\n"


def test_the_second_loss_runs_the_forward_again():
    assert recompute_shared(SAM, name="output", made_line=1, lines=(5,)) == SAM.replace(
        "criterion(output, target).backward()", "criterion(model(images), target).backward()")


def test_an_operator_expression_is_parenthesised():
    src = "y = a + model(x)\nm = y.sum()\nm.backward()\nn = (y * 3).sum()\nn.backward()\n"
    assert "n = ((a + model(x)) * 3).sum()" in recompute_shared(src, name="y", made_line=1, lines=(4, 5))


def test_nothing_to_recompute_is_no_fix():
    assert recompute_shared(SAM, name="output", made_line=2, lines=(5,)) is None       # line 2 does not make `output`
    assert recompute_shared("out = h\nl = out.sum()\n", name="out", made_line=1, lines=(2,)) is None  # no call to run again
    assert recompute_shared(SAM, name="output", made_line=1, lines=(1,)) is None       # only lines after it are changed


def test_inputs_freed_too_are_detached_where_it_was_made():
    src = "out = D(fake)\nd = bce(out, zeros)\nd.backward()\nopt.step()\ng = bce(out, ones)\n"
    assert recompute_shared(src, name="out", made_line=1, lines=(5,), detach=("fake",)) == \
        "out = D(fake.detach())\nd = bce(out, zeros)\nd.backward()\nopt.step()\ng = bce(D(fake), ones)\n"
