"""inline_helper: a no_grad helper's one-line result is computed right at each call of the
statement (`info_nce(encode(x1), encode(x2))`), so the helper stays as it was."""
from nb_autograd.fixes.inline_helper import inline_helper

SRC = """\
@torch.no_grad()
def encode(x):
    return F.normalize(encoder(x), dim=1)

loss = info_nce(encode(x1), encode(x2 + noise))
"""


def test_every_call_in_the_statement_is_inlined():
    out = inline_helper(SRC, line=5, function="encode")
    assert "loss = info_nce(F.normalize(encoder(x1), dim=1), F.normalize(encoder(x2 + noise), dim=1))" in out
    assert "@torch.no_grad()\ndef encode(x):" in out
    assert inline_helper(out, line=5, function="encode") is None
