"""move_step_after_backward: the step, and the other steps named with it, after the backward."""
from nb_autograd.fixes.move_step_after_backward import move_step_after_backward

SRC = """\
q1_opt.zero_grad()
q1_loss.backward()
q1_opt.step()
q2_opt.zero_grad()
q2_loss.backward()
q2_opt.step()
actor_loss.backward()
"""


def test_the_other_steps_named_move_with_it_in_their_order():
    out = move_step_after_backward(SRC, step_line=3, backward_line=7, others=(6,))
    assert out.splitlines()[-3:] == ["actor_loss.backward()", "q1_opt.step()", "q2_opt.step()"]
    assert "q1_loss.backward()\nq2_opt.zero_grad()\nq2_loss.backward()\nactor_loss" in out


def test_alone_only_its_own_step_moves_and_a_line_that_is_no_step_moves_nothing():
    out = move_step_after_backward(SRC, step_line=3, backward_line=7)
    assert out.splitlines()[-2:] == ["actor_loss.backward()", "q1_opt.step()"] and "q2_opt.step()\nactor" in out
    assert move_step_after_backward(SRC, step_line=3, backward_line=7, others=(5,)) == out  # a backward stays
    assert move_step_after_backward(SRC, step_line=2, backward_line=7) is None
