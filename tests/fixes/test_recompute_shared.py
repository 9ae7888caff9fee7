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


def test_an_attribute_made_in_one_method_is_recomputed_in_another():
    src = ("class M:\n    def d(self):\n        self.pred_real = self.netD(self.real_B)\n        self.loss_D = f(self.pred_real)\n"
           "    def g(self):\n        self.loss_G = f(self.pred_real - 1)\n")
    assert "self.loss_G = f(self.netD(self.real_B) - 1)" in recompute_shared(src, name="self.pred_real", made_line=3, lines=(6,))


def test_one_name_of_a_tuple_target_is_recomputed_as_its_item():
    src = "logits, loss = model(x, y)\nloss.backward()\nopt.step()\nl2 = ce(logits, s)\nl2.backward()\n"
    assert "l2 = ce(model(x, y)[0], s)" in recompute_shared(src, name="logits", made_line=1, lines=(4,))


def test_freed_inputs_the_second_loss_trains_through_are_computed_again_too():
    src = "code = G.encoder(x)\nrec = G.decoder(code)\nv = mse(rec, x)\nv.backward()\nopt.step()\ng = -D(rec).mean()\n"
    assert recompute_shared(src, name="rec", made_line=2, lines=(6,), rebuild=(("code", 1),)) == \
        src.replace("g = -D(rec)", "g = -D(G.decoder(G.encoder(x)))")
    assert recompute_shared(src, name="rec", made_line=2, lines=(6,), rebuild=(("code", 3),)) is None  # made after it
