"""detach_shared: the shared tensor is detached on the first loss's lines only."""
from nb_autograd.fixes.detach_shared import detach_shared

SRC = ("fake = G(z)\n"
       "d_loss = bce(D(real), ones) + bce(D(fake), zeros)  # D step\n"
       "d_loss.backward()\n"
       "g_loss = bce(D(fake), ones)\n"
       "g_loss.backward()\n")


def test_detaches_only_in_the_first_loss():
    got = detach_shared(SRC, name="fake", lines=(2, 3))
    assert got == SRC.replace("D(fake), zeros", "D(fake.detach()), zeros")
    assert "bce(D(fake), ones)" in got


def test_idempotent():
    once = detach_shared(SRC, name="fake", lines=(2, 3))
    assert detach_shared(once, name="fake", lines=(2, 3)) is None
    assert detach_shared(SRC, name="other", lines=(2, 3)) is None


def test_every_shared_tensor_the_first_loss_reads_is_detached():
    src = SRC.replace("fake = G(z)\n", "fake, fake2 = G(z), G(w)\n").replace("D(fake), zeros", "D(cat(fake, fake2)), zeros")
    got = detach_shared(src, name="fake", lines=(2, 3), also=("fake2",))
    assert "D(cat(fake.detach(), fake2.detach())), zeros" in got and "bce(D(fake), ones)" in got


def test_refused_when_the_loss_backpropagated_would_keep_no_graph():
    src = ("losses = torch.stack([l1, l2])\n"
           "total = (losses * weights.detach()).sum()\n"
           "total.backward()\n")
    assert detach_shared(src, name="losses", lines=(2,)) is None
    module_call = src.replace("(losses * weights.detach())", "(head(losses) * weights.detach())")
    assert "head(losses.detach())" in detach_shared(module_call, name="losses", lines=(2,))  # the head's weights keep a graph
    functional = src.replace("(losses * weights.detach())", "F.relu(losses)")
    assert detach_shared(functional, name="losses", lines=(2,)) is None
    intermediate = src.replace("total.backward()", "(total * scale).backward()")
    assert "losses.detach()" in detach_shared(intermediate, name="losses", lines=(2,))  # not the line backpropagated
