"""detach_state: the right form for the state (tensor, pair, tuple, maybe None, unknown)."""
from nb_autograd.fixes.detach_state import detach_state


def patch(init, call, names, **kw):
    src = f"{init}\nfor b in range(3):\n    # step\n    {call}\n"
    return detach_state(src, loop_line=2, line=4, names=names, **kw)


def test_forms():
    assert "    hidden = hidden.detach()\n    # step\n" in patch("hidden = z", "out, hidden = gru(x, hidden)", ("hidden",))
    assert "    h, c = h.detach(), c.detach()\n" in patch("h, c = z, z", "h, c = cell(x, (h, c))", ("h", "c"))
    assert "hidden = tuple(s.detach() for s in hidden)\n" in patch("hidden = (z, z)", "out, hidden = net(x, hidden)", ("hidden",))
    assert "hidden = tuple(s.detach() for s in hidden)\n" in patch("hidden = z", "out, hidden = self.lstm(x, hidden)", ("hidden",))
    assert "    if hidden is not None:\n        hidden = hidden.detach()\n" in patch("hidden = None", "out, hidden = rnn(x, hidden)", ("hidden",))
    assert "if isinstance(hidden, tuple) else hidden.detach()" in patch("hidden = z", "out, hidden = model(x, hidden)", ("hidden",))
    assert "    self.hidden = self.hidden.detach()\n" in patch("self.hidden = z", "out, self.hidden = self.rnn(x, self.hidden)", ("self.hidden",))
    assert "hidden = tuple(" in patch("hidden = z", "out, hidden = model(x, hidden)", ("hidden",), as_tuple=True)


def test_idempotent_and_inside_the_loop_only():
    src = "hidden = z\nfor b in range(3):\n    out, hidden = gru(x, hidden)\n"
    once = detach_state(src, loop_line=2, line=3, names=("hidden",))
    assert detach_state(once, loop_line=2, line=3, names=("hidden",)) is None
    assert detach_state(src, loop_line=2, line=1, names=("hidden",)) is None


def test_once_per_backward_at_the_top_of_the_function_holding_both():
    src = ('def chunk(xs):\n    """doc"""\n    loss = 0\n    for x in xs:\n        self.h, self.c = self.cell(x, (self.h, self.c))\n'
           '        loss = loss + self.h.sum()\n    loss.backward()\n')
    once = detach_state(src, loop_line=4, line=5, names=("self.h", "self.c"), backward_line=7)
    assert once.startswith('def chunk(xs):\n    """doc"""\n    self.h, self.c = self.h.detach(), self.c.detach()\n    loss = 0\n')
    assert detach_state(once, loop_line=4, line=6, names=("self.h", "self.c"), backward_line=8) is None


def test_right_after_the_update_when_the_backward_is_outside_its_function():
    src = ("class M:\n    def forward(self, x):\n        out, self.hidden = self.gru(x, self.hidden)\n        return out\n"
           "for s in S:\n    m(x).sum().backward()\n")
    once = detach_state(src, loop_line=5, line=3, names=("self.hidden",), backward_line=6)
    assert "        out, self.hidden = self.gru(x, self.hidden)\n        self.hidden = self.hidden.detach()\n" in once
    assert detach_state(once, loop_line=6, line=3, names=("self.hidden",), backward_line=7) is None


def test_state_is_cut_at_the_truncation_boundary_when_backward_runs_every_k_steps():
    from nb_autograd.fixes.detach_state import detach_state as cut
    src = "h = z\nfor t in range(6):\n    h = cell(x, h)\n    if t % 3 == 2:\n        loss(h).backward()\n"
    out = cut(src, loop_line=2, line=3, names=("h",), as_tuple=False, backward_line=5)
    assert out == src + "        h = h.detach()\n"
    assert cut(out, loop_line=2, line=3, names=("h",), as_tuple=False, backward_line=5) is None


def test_tuple_state_that_starts_as_none_is_guarded():
    from nb_autograd.fixes.detach_state import detach_state
    src = ("for epoch in range(2):\n    state = None\n    for x in xs:\n        out, state = lstm(x, state)\n"
           "        out.sum().backward()\n")
    out = detach_state(src, loop_line=3, line=4, names=("state",), as_tuple=True, backward_line=5)
    assert "        if state is not None:\n            state = tuple(s.detach() for s in state)\n" in out
    assert detach_state(out, loop_line=3, line=6, names=("state",), as_tuple=True, backward_line=7) is None


def test_a_method_called_each_rollout_step_is_cut_once_per_backward_by_the_caller():
    src = ("class Agent:\n    def act(self, obs):\n        self.h, self.c = self.cell(obs, (self.h, self.c))\n"
           "        return self.h\n\nfor update in range(3):\n    outs = []\n    for _ in range(8):\n"
           "        outs.append(agent.act(obs))\n    loss = sum(outs).sum()\n    loss.backward()\n")
    out = detach_state(src, loop_line=6, line=3, names=("self.h", "self.c"), backward_line=11)
    assert "for update in range(3):\n    agent.h, agent.c = agent.h.detach(), agent.c.detach()\n" in out
    assert "self.h.detach()" not in out
    assert detach_state(out, loop_line=6, line=3, names=("self.h", "self.c"), backward_line=12) is None


FORWARD = "class M:\n    def forward(self, x):\n{body}for s in S:\n    m(x).sum().backward()\n"


def _cut(body: str, line: int) -> str | None:
    src = FORWARD.format(body=body)
    return detach_state(src, loop_line=src.count("\n") - 1, line=line, names=("self.h",), backward_line=src.count("\n"))


def test_after_the_unrolled_steps_and_after_the_output_is_computed_from_the_state():
    body = ("        for i in range(3):\n            self.h = self.cell(x[i], self.h)\n"
            "        out = self.head(self.h)\n        return out\n")
    once = _cut(body, 4)
    assert "        out = self.head(self.h)\n        self.h = self.h.detach()\n        return out\n" in once
    assert "            self.h = self.cell(x[i], self.h)\n        out" in once  # the unrolled steps stay connected


def test_a_state_returned_as_it_is_is_cut_before_the_return():
    once = _cut("        out, self.h = self.rnn(x, self.h)\n        return out, self.h\n", 3)
    assert "        out, self.h = self.rnn(x, self.h)\n        self.h = self.h.detach()\n        return out, self.h\n" in once


def test_an_output_computed_from_the_state_in_the_return_has_the_cut_at_the_top():
    once = _cut("        self.h = torch.tanh(self.i2h(x) + self.h)\n        return self.h2o(self.h)\n", 3)
    first, second = once.splitlines()[2:4]
    assert first.startswith("        self.h = ") and first.endswith("self.h.detach()")
    assert second == "        self.h = torch.tanh(self.i2h(x) + self.h)"


def test_the_programs_own_repackage_helper_is_used_when_it_has_one():
    src = ("def repackage_hidden(h):\n    if isinstance(h, torch.Tensor):\n        return h.detach()\n"
           "    return tuple(repackage_hidden(v) for v in h)\n"
           "hidden = [(z, z), (z, z)]\nfor b in range(3):\n    # step\n    out, hidden = model(x, hidden)\n")
    out = detach_state(src, loop_line=6, line=8, names=("hidden",))
    assert "    hidden = repackage_hidden(hidden)\n    # step\n" in out
    assert "s.detach() for s in hidden" not in out


def test_several_tuple_states_seen_at_run_time_keep_their_kind_one_per_line_when_long():
    got = patch("h1, h2 = (z, z), (z, z)", "x1, h1, h2 = enc(x, h1, h2)", ("h1", "h2"), as_tuple=True)
    assert "    h1, h2 = tuple(s.detach() for s in h1), tuple(s.detach() for s in h2)\n" in got
    names = ("encoder_h_1", "encoder_h_2", "decoder_h_1")
    got = patch("pass", f"y, {', '.join(names)} = net(x, {', '.join(names)})", names, as_tuple=True)
    assert f"    {', '.join(names)} = (\n" in got and "    tuple(s.detach() for s in decoder_h_1),\n" in got
    compile(got, "<patched>", "exec")


def test_an_objects_attributes_each_get_the_kind_the_runtime_saw():
    got = patch("state = State()", "out, state = decode(x, state)", ("state.hidden", "state.feed"), as_tuple=("tuple", ""))
    assert "    state.hidden, state.feed = tuple(s.detach() for s in state.hidden), state.feed.detach()\n" in got
    one = patch("state = State()", "out, state = decode(x, state)", ("state.h",), as_tuple=("",))
    assert "    state.h = state.h.detach()\n" in one
    assert patch("state = State()", "out, state = decode(x, state)", ("state.h",), as_tuple=("set",)) is None
