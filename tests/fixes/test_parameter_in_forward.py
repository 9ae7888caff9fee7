"""parameter_in_forward: a value derived in __init__ from a parameter made on the spot."""
from nb_autograd.fixes.parameter_in_forward import parameter_in_forward

SRC = """\
class K(nn.Module):
    def __init__(self, ls=1.0):
        super().__init__()
        self.scale = {value}

    def forward(self, x):
        return x / self.scale + self.scale
"""


def test_the_parameter_is_kept_and_the_value_derived_at_every_use():
    out = parameter_in_forward(SRC.format(value="torch.exp(nn.Parameter(torch.log(torch.tensor(ls))))"), line=4)
    assert "        self.log_scale = nn.Parameter(torch.log(torch.tensor(ls)))\n" in out
    assert "return x / torch.exp(self.log_scale) + torch.exp(self.log_scale)" in out
    assert parameter_in_forward(out, line=4) is None


def test_another_transform_keeps_a_raw_parameter():
    out = parameter_in_forward(SRC.format(value="F.softplus(torch.nn.Parameter(torch.zeros(3)))"), line=4)
    assert "self.raw_scale = torch.nn.Parameter(torch.zeros(3))" in out and "F.softplus(self.raw_scale)" in out


def test_not_for_a_plain_parameter_or_a_value_set_again():
    assert parameter_in_forward(SRC.format(value="nn.Parameter(torch.ones(1))"), line=4) is None
    again = SRC.format(value="torch.exp(nn.Parameter(torch.zeros(1)))") + "\n    def reset(self):\n        self.scale = 1\n"
    assert parameter_in_forward(again, line=4) is None
