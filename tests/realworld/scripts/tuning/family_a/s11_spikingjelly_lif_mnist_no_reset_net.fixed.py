# source: variant of https://github.com/fangwei123456/spikingjelly/issues/29 (maintainer comment of 2021-12-11 on resetting the network; training loop of the linked clock_driven/examples/lif_fc_mnist.py, with a pure-PyTorch LIF node and ATan surrogate autograd.Function instead of the spikingjelly package, random images instead of MNIST, and the reset_net call missing)
# style: spiking
# cause: recurrent_state_not_detached
# line: 47
# expert: The LIF neuron keeps its membrane potential self.v as module state; without functional.reset_net(net) after optimizer.step(), the next batch starts from the previous batch's final v, which links the new graph to the old one that backward already freed. The maintainer's fix: reset the whole network's state before the next iteration, i.e. call functional.reset_net(net) right after optimizer.step().
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    """Heaviside forward, arctan surrogate gradient backward (spikingjelly surrogate.ATan)."""

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        alpha = ctx.alpha
        grad_x = alpha / 2 / (1 + (math.pi / 2 * alpha * x).pow(2)) * grad_output
        return grad_x, None


class LIFNode(nn.Module):
    def __init__(self, tau=100.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau = tau
        self.v_threshold = v_threshold
        self.v_reset = v_reset
        self.v = v_reset

    def neuronal_charge(self, x):
        self.v = self.v + (x - (self.v - self.v_reset)) / self.tau

    def neuronal_fire(self):
        return ATan.apply(self.v - self.v_threshold, 2.0)

    def neuronal_reset(self, spike):
        self.v = self.v * (1. - spike) + self.v_reset * spike

    def forward(self, x):
        self.neuronal_charge(x)
        spike = self.neuronal_fire()
        self.neuronal_reset(spike)
        return spike

    def reset(self):
        self.v = self.v_reset


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, 'reset'):
                m.reset()


class PoissonEncoder(nn.Module):
    def forward(self, x):
        return torch.rand_like(x).le(x).to(x)


T = 8
tau = 2.0
lr = 1e-3
batch_size = 16

net = nn.Sequential(
    nn.Flatten(),
    nn.Linear(28 * 28, 10, bias=False),
    LIFNode(tau=tau)
)
optimizer = torch.optim.Adam(net.parameters(), lr=lr)
encoder = PoissonEncoder()
train_data_loader = [(torch.rand(batch_size, 1, 28, 28), torch.randint(0, 10, (batch_size,))) for _ in range(3)]

net.train()
for img, label in train_data_loader:
    label_one_hot = F.one_hot(label, 10).float()

    optimizer.zero_grad()

    for t in range(T):
        if t == 0:
            out_spikes_counter = net(encoder(img).float())
        else:
            out_spikes_counter += net(encoder(img).float())

    out_spikes_counter_frequency = out_spikes_counter / T

    loss = F.mse_loss(out_spikes_counter_frequency, label_one_hot)
    loss.backward()
    optimizer.step()
    functional.reset_net(net)

    train_batch_accuracy = (out_spikes_counter_frequency.max(1)[1] == label).float().mean().item()
    print(f"loss {loss.item():.4f} acc {train_batch_accuracy:.3f}")
