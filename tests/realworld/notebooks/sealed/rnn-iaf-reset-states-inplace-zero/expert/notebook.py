# expert fix of rnn-iaf-reset-states-inplace-zero
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)

class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.save_for_backward(v)
        return (v > 0).float()

    @staticmethod
    def backward(ctx, g):
        (v,) = ctx.saved_tensors
        s = torch.sigmoid(4 * v)
        return g * 4 * s * (1 - s)

class StatefulIAF(nn.Module):
    """Integrate-and-fire layer that keeps v_mem as a registered buffer between calls."""
    def __init__(self, threshold=1.0):
        super().__init__()
        self.threshold = threshold
        self.register_buffer('v_mem', torch.zeros(0))

    def is_state_initialised(self):
        return self.v_mem.numel() > 0

    def reset_states(self):
        if self.is_state_initialised():
            for buffer in self.buffers():
                buffer.zero_().detach_()

    def forward(self, x):                      # x: (batch, time, features)
        if not self.is_state_initialised():
            self.v_mem = torch.zeros_like(x[:, 0])
        spikes = []
        for t in range(x.shape[1]):
            self.v_mem = self.v_mem + x[:, t]
            spk = SpikeFn.apply(self.v_mem - self.threshold)
            self.v_mem = self.v_mem - spk * self.threshold
            spikes.append(spk)
        return torch.stack(spikes, 1)
# %%
model = nn.Sequential(nn.Linear(6, 16), StatefulIAF(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
# %%
batches = [(torch.rand(4, 10, 6), torch.randint(0, 2, (4,))) for _ in range(4)]
# %%
for x, y in batches:
    for layer in model:
        if isinstance(layer, StatefulIAF):
            layer.reset_states()
    out = model(x).sum(1)
    loss = loss_fn(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())
