"""reinit_state: a module's own initial state at the top of the loop, only when the program
never starts it again itself."""
from nb_autograd.fixes.reinit_state import reinit_call, reinit_state

SRC = """\
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, 1, 6), torch.zeros(1, 1, 6))

    def forward(self, x):
        out, self.hidden = self.lstm(x, self.hidden)
        return out

model = Tagger()
for x, y in data:
    model.zero_grad()
    loss(model(x), y).backward()
"""
WHERE = dict(line=10, name="self.hidden", backward_line=16)


def test_the_models_own_initialiser_at_the_top_of_the_loop():
    assert reinit_call(SRC, **WHERE) == "model.hidden = model.init_hidden()"
    once = reinit_state(SRC, **WHERE)
    assert "for x, y in data:\n    model.hidden = model.init_hidden()\n    model.zero_grad()\n" in once
    assert reinit_state(once, line=10, name="self.hidden", backward_line=17) is None  # it is called now


def test_not_when_the_program_starts_the_state_again_itself():
    per_epoch = SRC.replace("for x, y in data:", "model.hidden = model.init_hidden()\nfor x, y in data:")
    assert reinit_state(per_epoch, line=10, name="self.hidden", backward_line=17) is None


def test_not_without_an_initialiser_or_a_single_model():
    assert reinit_state(SRC.replace("self.hidden = self.init_hidden()", "self.hidden = None"), **WHERE) is None
    two = SRC.replace("model = Tagger()", "model = Tagger()\nother = Tagger()").replace("model.zero_grad()", "model.zero_grad(); other.zero_grad()")
    assert reinit_state(two, line=10, name="self.hidden", backward_line=17) is None
