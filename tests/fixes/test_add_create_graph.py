"""add_create_graph: on each autograd.grad() a gradient penalty is built from, all or none."""
from nb_autograd.fixes.add_create_graph import add_create_graph

SOURCE = """\
grads = autograd.grad(env_loss, params, retain_graph=True)
mean_grad = autograd.grad(mean_loss, params, retain_graph=True)
"""


def test_every_line_gets_the_keyword():
    assert add_create_graph(SOURCE, lines=(1, 2)) == SOURCE.replace("retain_graph=True)", "retain_graph=True, create_graph=True)")
    assert add_create_graph(SOURCE, line=2) == SOURCE.replace("(mean_loss, params, retain_graph=True)",
                                                              "(mean_loss, params, retain_graph=True, create_graph=True)")


def test_all_or_none():
    assert add_create_graph(SOURCE + "print(grads)\n", lines=(1, 3)) is None
    done = SOURCE.replace("retain_graph=True)", "retain_graph=True, create_graph=True)")
    assert add_create_graph(done, lines=(1,)) is None  # already there
