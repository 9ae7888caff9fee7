# source: https://github.com/facebookexperimental/protoquant/pull/25
# style: quant
# cause: tensor_reused_across_iterations
# line: 40
# expert: make the FP8 scale bookkeeping non-differentiable: compute the amax history and the scales under torch.no_grad() so the amax stored for the next iteration carries no graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

E4M3_MAX_POS = 448.0
EPS = 1e-12


def tensor_to_amax(x):
    return torch.max(torch.abs(x))


def amax_to_scale(amax, float8_max=E4M3_MAX_POS):
    return float8_max / torch.clamp(amax, min=EPS)


def to_float8_fake(x, scale, float8_max=E4M3_MAX_POS):
    x_scaled = (x * scale).clamp(-float8_max, float8_max)
    x_rounded = x_scaled + (torch.round(x_scaled * 8) / 8 - x_scaled).detach()  # straight-through
    return x_rounded / scale


class Float8Linear(nn.Linear):
    """Delayed scaling: the scale comes from the max over a short amax history."""

    def __init__(self, in_features, out_features, bias=True, history_len=4):
        super().__init__(in_features, out_features, bias)
        self.register_buffer("fp8_amax_history_x", torch.zeros(history_len))
        self.register_buffer("fp8_amax_history_w", torch.zeros(history_len))

    def forward(self, x):
        self.fp8_amax_history_x = torch.cat([self.fp8_amax_history_x[1:], tensor_to_amax(x).reshape(1)])
        self.fp8_amax_history_w = torch.cat([self.fp8_amax_history_w[1:], tensor_to_amax(self.weight).reshape(1)])
        scale_x = amax_to_scale(self.fp8_amax_history_x.max())
        scale_w = amax_to_scale(self.fp8_amax_history_w.max())
        x_fp8 = to_float8_fake(x, scale_x)
        w_fp8 = to_float8_fake(self.weight, scale_w)
        return F.linear(x_fp8, w_fp8, self.bias)


model = nn.Sequential(Float8Linear(16, 32), nn.ReLU(), Float8Linear(32, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
for step in range(4):
    x = torch.randn(8, 16)
    y = torch.randn(8, 4)
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
