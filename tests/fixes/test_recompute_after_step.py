"""recompute_after_step: the statements from the stepped model's call to the loss written
again after the step (copied where something else still reads them, moved otherwise)."""
from nb_autograd.fixes.move_step_after_backward import move_step_after_backward
from nb_autograd.fixes.recompute_after_step import recompute_after_step

GAN = """\
fake = G(z)
p_fake = D(fake)
d_loss = bce(D(real), ones) + bce(p_fake, zeros)
g_loss = bce(p_fake, ones)
d_loss.backward(retain_graph=True)
opt_d.step()
g_loss.backward()
"""


def test_the_chain_is_computed_again_after_the_step():
    once = recompute_after_step(GAN, step_line=6, lines=(2, 4))
    assert once == GAN.replace("g_loss = bce(p_fake, ones)\n", "").replace(
        "opt_d.step()\n", "opt_d.step()\np_fake = D(fake)\ng_loss = bce(p_fake, ones)\n")
    assert "p_fake = D(fake)\nd_loss" in once  # D's own loss still reads the first one
    assert recompute_after_step(once, step_line=5, lines=(2,)) in (None, once)


def test_a_cell_boundary_keeps_the_original():
    cells = GAN.replace("d_loss.backward", '"nb_autograd: piece 1"\nd_loss.backward')
    once = recompute_after_step(cells, step_line=7, lines=(4,))
    assert once.count("g_loss = bce(p_fake, ones)") == 2


def test_nothing_after_the_step_or_without_a_step():
    assert recompute_after_step(GAN, step_line=5, lines=(2,)) is None
    assert recompute_after_step(GAN, step_line=6, lines=(7,)) is None


def test_a_step_moves_after_a_backward_nested_in_an_if():
    src = "def backward(g=None, d=None):\n    d.backward()\n    opt_d.step()\n    if g is not None:\n        g.backward()\n    opt_g.step()\n"
    once = move_step_after_backward(src, step_line=3, backward_line=5)
    assert once == "def backward(g=None, d=None):\n    d.backward()\n    if g is not None:\n        g.backward()\n    opt_d.step()\n    opt_g.step()\n"


def test_the_steps_written_together_move_together():
    src = 'loss_d.backward()\n"nb_autograd: piece 1"\nopt_d.step()\nopt_g.step()\nprint(1)\n"nb_autograd: piece 2"\nloss_g.backward()\n'
    once = move_step_after_backward(src, step_line=3, backward_line=7)
    assert once == 'loss_d.backward()\n"nb_autograd: piece 1"\nprint(1)\n"nb_autograd: piece 2"\nloss_g.backward()\nopt_d.step()\nopt_g.step()\n'
    assert move_step_after_backward(once, step_line=6, backward_line=5) in (None, once)
