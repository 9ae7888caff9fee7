"""torch.autograd's functions are recognised by what the imports make them, not by how they
are spelled: every BAD example that calls torch.autograd.grad gets the same first fix when
the program imports it as `grad` or through `import torch.autograd as ag`."""
from __future__ import annotations

import pytest

import nb_autograd
from nb_autograd.fixes.cst import autograd_function, load
from tests.conftest import examples

SPELLINGS = {"from": ("from torch.autograd import grad", "grad("), "alias": ("import torch.autograd as ag", "ag.grad(")}
CASES = [p for p in examples("BAD") if "torch.autograd.grad(" in p.values[1].code and p.values[1].fixed]


def _respelled(code: str, spelling: str) -> str:
    imported, call = SPELLINGS[spelling]
    return code.replace("torch.autograd.grad(", call).replace("import torch\n", f"import torch\n{imported}\n", 1)


def test_there_are_examples_to_respell():
    assert len(CASES) >= 3


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
@pytest.mark.parametrize("rule,example", CASES)
def test_imported_spellings_get_the_same_first_fix(rule, example, spelling):
    top = nb_autograd.diagnose(_respelled(example.code, spelling)).top
    assert top is not None and top.cause == rule.CAUSE and top.fixes
    assert top.fixes[0].patched_source == _respelled(example.fixed, spelling)


def test_a_local_function_named_grad_is_not_autograd():
    tree = load("def grad(x, y):\n    return x\n\ngrad(1, 2)\n")
    call = next(n for n in tree.positions if type(n).__name__ == "Call")
    assert autograd_function(call, tree) is None
