# source: https://github.com/fangwei123456/spikingjelly/issues/607
# style: spiking
# cause: tensor_reused_across_iterations
# line: 66
# expert: do not carry the recorded membrane potential (which still holds the previous batch's graph) into the next batch: read it with store_v_seq=True / v_seq and call functional.reset_net after every batch
import torch
import torch.nn as nn

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=2.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        a = ctx.alpha
        return grad_output * a / 2 / (1 + (torch.pi / 2 * a * x) ** 2), None


class LIFNode(nn.Module):
    """multi-step LIF node (step_mode='m') with a stored membrane potential v"""
    def __init__(self, tau=2.0, v_threshold=1.0, store_v_seq=False):
        super().__init__()
        self.tau, self.v_threshold, self.store_v_seq = tau, v_threshold, store_v_seq
        self.v = 0.0
        self.v_seq = None

    def reset(self):
        self.v = 0.0
        self.v_seq = None

    def forward(self, x_seq):
        spikes, vs = [], []
        for x in x_seq:
            self.v = self.v + (x - self.v) / self.tau
            spike = ATan.apply(self.v - self.v_threshold)
            self.v = self.v * (1.0 - spike)
            spikes.append(spike)
            vs.append(self.v)
        if self.store_v_seq:
            self.v_seq = torch.stack(vs)
        return torch.stack(spikes)


fc = nn.Linear(32, 10)
lif = LIFNode(store_v_seq=True)
optimizer = torch.optim.Adam(fc.parameters(), lr=1e-3)
saved_v_seq = None

for step in range(3):
    input_data = torch.randn(8, 4, 32)  # T, B, N
    target = torch.randint(0, 10, (4,))
    out = lif(fc(input_data))
    v_seq = lif.v_seq
    loss = nn.functional.cross_entropy(out.mean(0), target) + 0.1 * v_seq[-1].mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    saved_v_seq = v_seq.detach()
    lif.reset()  # functional.reset_net(lif)
    print(step, loss.item())
