"""wrap_no_grad: the statement moves into `with torch.no_grad():`, its comments with it."""
from nb_autograd.fixes.wrap_no_grad import wrap_no_grad

SRC = "import torch as T\nfor e in range(2):\n    # reference\n    ref = net(x)  # once\n    run(ref)\n"


def test_wraps_with_the_users_alias_and_keeps_comments():
    assert wrap_no_grad(SRC, line=4) == (
        "import torch as T\nfor e in range(2):\n    # reference\n    with T.no_grad():\n"
        "        ref = net(x)  # once\n    run(ref)\n")


def test_idempotent_and_needs_torch():
    once = wrap_no_grad(SRC, line=4)
    assert wrap_no_grad(once, line=4) is None and wrap_no_grad(once, line=5) is None
    assert wrap_no_grad("ref = net(x)\n", line=1) is None  # no torch import to name
    assert wrap_no_grad(SRC, line=9) is None


def test_torch_from_a_star_import_is_used_by_its_name_and_never_guessed():
    star = "from torch_snippets import *\nx = torch.zeros(2)\nout = post(x)\n"
    assert wrap_no_grad(star, line=3) == "from torch_snippets import *\nx = torch.zeros(2)\nwith torch.no_grad():\n    out = post(x)\n"
    assert wrap_no_grad("from torch.nn import functional as F\nout = F.relu(x)\n", line=2) is None


def test_not_around_a_statement_that_only_names_a_tensor():
    for value in ("out", "self.feats", "acts['conv1']", "(a, b.c)"):
        assert wrap_no_grad(f"import torch\nref = {value}\n", line=2) is None  # it would bind the same graph
    assert wrap_no_grad("import torch\nref = feats[0]\n", line=2) is not None  # a tensor's index is an op
