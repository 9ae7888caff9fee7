"""clear_module_cache: a trained module's memo of its own outputs is emptied after each
update (the backward and the optimizer calls right after it), once."""
from nb_autograd.fixes.clear_module_cache import clear_module_cache

LOOP = """\
for it in range(3):
    emb = encoder()
    loss = (emb * x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
"""


def test_the_cache_is_emptied_after_the_step():
    once = clear_module_cache(LOOP, backward_line=5, holder="encoder.cache")
    assert once == LOOP.replace("    opt.step()\n", "    opt.step()\n    encoder.cache.clear()\n")
    assert clear_module_cache(once, backward_line=5, holder="encoder.cache") is None


def test_nothing_without_a_backward_or_a_name_the_code_uses():
    assert clear_module_cache(LOOP, backward_line=2, holder="encoder.cache") is None
    assert clear_module_cache(LOOP, backward_line=5, holder="model.cache") is None
