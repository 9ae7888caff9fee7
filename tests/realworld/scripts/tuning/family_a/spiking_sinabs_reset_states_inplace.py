# source: https://github.com/synsense/sinabs/issues/5
# style: spiking
# cause: recurrent_state_not_detached
# line: 47
# expert: detach the state buffers when resetting them in StatefulLayer.reset_states (buffer.zero_().detach_()) so the zeroed state no longer belongs to the previous graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SingleExponential(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v_mem, threshold=1.0):
        ctx.save_for_backward(v_mem)
        ctx.threshold = threshold
        return (v_mem >= threshold).to(v_mem)

    @staticmethod
    def backward(ctx, grad_output):
        (v_mem,) = ctx.saved_tensors
        return grad_output * torch.exp(-(v_mem - ctx.threshold).abs()), None


class StatefulLayer(nn.Module):
    def __init__(self, state_names):
        super().__init__()
        self.state_names = state_names
        for name in state_names:
            self.register_buffer(name, torch.zeros(0))

    def is_state_initialised(self):
        return all(getattr(self, n).numel() > 0 for n in self.state_names)

    def init_state_with_shape(self, shape):
        for name in self.state_names:
            setattr(self, name, torch.zeros(shape))

    def reset_states(self, randomize=False):
        """Reset the state/buffers in a layer."""
        if self.is_state_initialised():
            for buffer in self.buffers():
                if randomize:
                    torch.nn.init.uniform_(buffer)
                else:
                    buffer.zero_()


class IAFSqueeze(StatefulLayer):
    """Integrate-and-fire layer whose input has batch and time squeezed into dim 0."""

    def __init__(self, batch_size, spike_threshold=1.0):
        super().__init__(["v_mem"])
        self.batch_size = batch_size
        self.spike_threshold = spike_threshold

    def forward(self, x):
        x = x.view(self.batch_size, -1, *x.shape[1:])
        if not self.is_state_initialised():
            self.init_state_with_shape((self.batch_size, *x.shape[2:]))
        spikes = []
        for t in range(x.shape[1]):
            self.v_mem = self.v_mem + x[:, t]
            spk = SingleExponential.apply(self.v_mem, self.spike_threshold)
            self.v_mem = self.v_mem - spk * self.spike_threshold
            spikes.append(spk)
        return torch.stack(spikes, 1).flatten(0, 1)


batch_size, num_timesteps = 4, 5
model = nn.Sequential(
    nn.Conv2d(2, 8, kernel_size=3, stride=2, padding=1),
    IAFSqueeze(batch_size=batch_size),
    nn.Flatten(),
    nn.Linear(8 * 8 * 8, 3),
    IAFSqueeze(batch_size=batch_size),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
train_loader = [(torch.rand(batch_size, num_timesteps, 2, 16, 16), torch.randint(0, 3, (batch_size,))) for _ in range(3)]


def train_epoch(model, loader, optimizer, loss_fn):
    total = 0.0
    for events, labels in loader:
        for m in model.modules():
            if isinstance(m, StatefulLayer):
                m.reset_states()
        out = model(events.flatten(0, 1)).view(batch_size, num_timesteps, -1).sum(1)
        loss = loss_fn(out, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


for epoch in range(1):
    print("train loss", train_epoch(model, train_loader, optimizer, loss_fn))
