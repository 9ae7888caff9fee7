# source: https://github.com/fangwei123456/Spike-Element-Wise-ResNet/issues/19
# style: spiking
# cause: recurrent_state_not_detached
# line: 64
# expert: call functional.reset_net(model) after every optimizer step so the neurons' membrane state does not carry the previous batch's graph
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiStepIFNodePTT(torch.autograd.Function):
    """Multi-step integrate-and-fire kernel with an ATan surrogate (hard reset)."""

    @staticmethod
    def forward(ctx, x_seq, v_init, v_threshold, alpha):
        h_seq = []
        spike_seq = []
        v = v_init
        for t in range(x_seq.shape[0]):
            h = v + x_seq[t]
            spike = (h >= v_threshold).to(x_seq)
            v = h * (1.0 - spike)
            h_seq.append(h)
            spike_seq.append(spike)
        h_seq = torch.stack(h_seq)
        spike_seq = torch.stack(spike_seq)
        ctx.save_for_backward(h_seq, spike_seq)
        ctx.v_threshold = v_threshold
        ctx.alpha = alpha
        v_seq = h_seq * (1.0 - spike_seq)
        return spike_seq, v_seq

    @staticmethod
    def backward(ctx, grad_spike_seq, grad_v_seq):
        h_seq, spike_seq = ctx.saved_tensors
        alpha = ctx.alpha
        sg = alpha / 2 / (1 + (math.pi / 2 * alpha * (h_seq - ctx.v_threshold)) ** 2)
        grad_x = torch.zeros_like(h_seq)
        grad_v = torch.zeros_like(h_seq[0])
        for t in reversed(range(h_seq.shape[0])):
            grad_h = grad_spike_seq[t] * sg[t] + (grad_v_seq[t] + grad_v) * (1.0 - spike_seq[t])
            grad_x[t] = grad_h
            grad_v = grad_h
        return grad_x, grad_v, None, None


class MultiStepIFNode(nn.Module):
    def __init__(self, v_threshold=1.0, alpha=2.0):
        super().__init__()
        self.v_threshold = v_threshold
        self.alpha = alpha
        self.v = 0.0

    def reset(self):
        self.v = 0.0

    def forward(self, x_seq):
        if not isinstance(self.v, torch.Tensor):
            self.v = torch.zeros_like(x_seq[0])
        spike_seq, v_seq = MultiStepIFNodePTT.apply(x_seq, self.v, self.v_threshold, self.alpha)
        self.v = v_seq[-1]
        return spike_seq


class SeqConvBN(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x_seq):
        T, N = x_seq.shape[:2]
        y = self.bn(self.conv(x_seq.flatten(0, 1)))
        return y.view(T, N, *y.shape[1:])


class SEWBasicBlock(nn.Module):
    """Spike-element-wise residual block with the ADD connect function."""

    def __init__(self, channels):
        super().__init__()
        self.conv1 = SeqConvBN(channels, channels)
        self.sn1 = MultiStepIFNode()
        self.conv2 = SeqConvBN(channels, channels)
        self.sn2 = MultiStepIFNode()

    def forward(self, x_seq):
        out = self.sn1(self.conv1(x_seq))
        out = self.sn2(self.conv2(out))
        return out + x_seq


class SEWResNet(nn.Module):
    def __init__(self, T=4, num_classes=5):
        super().__init__()
        self.T = T
        self.stem = SeqConvBN(3, 8, stride=2)
        self.sn0 = MultiStepIFNode()
        self.layer1 = SEWBasicBlock(8)
        self.fc = nn.Linear(8, num_classes)

    def forward(self, img):
        x_seq = img.unsqueeze(0).repeat(self.T, 1, 1, 1, 1)
        x_seq = self.sn0(self.stem(x_seq))
        x_seq = self.layer1(x_seq)
        feat = x_seq.mean(dim=(3, 4))
        return self.fc(feat).mean(0)


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()


model = SEWResNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
gen = [(torch.rand(8, 3, 16, 16) * 2, torch.randint(0, 5, (8,))) for _ in range(3)]


def fit_one_epoch(model, gen, optimizer):
    model.train()
    for iteration, (images, targets) in enumerate(gen):
        optimizer.zero_grad()
        outputs = model(images)
        loss = F.cross_entropy(outputs, targets)
        loss.backward()
        optimizer.step()
        functional.reset_net(model)
        print(f"iter {iteration} loss {loss.item():.4f}")


fit_one_epoch(model, gen, optimizer)
