# source: variant of https://github.com/fangwei123456/spikingjelly/issues/288 (the reporter's LightningModule training_step that calls functional.reset_net(self.model) before returning the loss; pure-PyTorch LIF/IF nodes with an ATan surrogate autograd.Function instead of spikingjelly, and a minimal manual stand-in for the Lightning trainer loop on random data)
# style: spiking
# expert: Correct: reset_net only rebinds each neuron's state attribute v to v_reset, it does not modify any tensor in place, and everything backward needs was already saved by the autograd nodes of this step's graph; as the maintainer answers in the issue, calling reset before backward causes no error, and it also guarantees the next batch starts from a fresh state, so no graph is carried across batches.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        alpha = ctx.alpha
        return alpha / 2 / (1 + (math.pi / 2 * alpha * x).pow(2)) * grad_output, None


class IFNode(nn.Module):
    def __init__(self, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.v_threshold = v_threshold
        self.v_reset = v_reset
        self.v = v_reset

    def neuronal_charge(self, x):
        self.v = self.v + x

    def forward(self, x):
        self.neuronal_charge(x)
        spike = ATan.apply(self.v - self.v_threshold, 2.0)
        self.v = self.v * (1. - spike) + self.v_reset * spike
        return spike

    def reset(self):
        self.v = self.v_reset


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, 'reset'):
                m.reset()


class myTrainModule(nn.Module):
    def __init__(self, model, T=4):
        super().__init__()
        self.model = model  # here model is nn.Sequential with conv layers and spiking neurons
        self.T = T

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)

    def training_step(self, batch, batch_idx):
        img, target = batch
        output = 0.
        for t in range(self.T):
            output = output + self.model(img)
        output = output / self.T
        loss = F.cross_entropy(output, target)

        functional.reset_net(self.model)
        return loss


model = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), IFNode(),
    nn.Flatten(), nn.Linear(4 * 8 * 8, 10), IFNode(),
)
module = myTrainModule(model)
optimizer = module.configure_optimizers()
train_loader = [(torch.rand(8, 1, 8, 8), torch.randint(0, 10, (8,))) for _ in range(3)]

# what the Lightning training loop does with the returned loss
module.train()
for batch_idx, batch in enumerate(train_loader):
    optimizer.zero_grad()
    loss = module.training_step(batch, batch_idx)
    loss.backward()
    optimizer.step()
    print(f"batch {batch_idx}: loss {loss.item():.4f}")
