# source: https://github.com/zhouchenlin2096/QKFormer/issues/10
# style: spiking
# cause: recurrent_state_not_detached
# line: 109
# expert: reset the membrane potentials of all spiking neurons after every optimizer step (functional.reset_net(model)), as the QKFormer training script does; otherwise each batch starts from the previous batch's graph-attached v
import contextlib
import time

import torch
import torch.nn as nn

torch.manual_seed(0)


class SigmoidSurrogate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=4.0):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        sg = torch.sigmoid(ctx.alpha * x)
        return grad_output * ctx.alpha * sg * (1 - sg), None


class MultiStepLIFNode(nn.Module):
    """Plain-torch MultiStepLIFNode(tau=2., detach_reset=True): v is kept as module state between calls."""

    def __init__(self, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau, self.v_threshold, self.v_reset = tau, v_threshold, v_reset
        self.v = 0.0

    def reset(self):
        self.v = 0.0

    def forward(self, x_seq):
        spikes = []
        for t in range(x_seq.shape[0]):
            self.v = self.v + (x_seq[t] - (self.v - self.v_reset)) / self.tau
            spike = SigmoidSurrogate.apply(self.v - self.v_threshold)
            self.v = self.v * (1.0 - spike.detach()) + self.v_reset * spike.detach()
            spikes.append(spike)
        return torch.stack(spikes)


class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, 'reset'):
                m.reset()


class QKFormer(nn.Module):
    def __init__(self, T=4, embed_dim=16):
        super().__init__()
        self.T = T
        self.proj_conv = nn.Conv2d(3, embed_dim, 3, padding=1, bias=False)
        self.proj_bn = nn.BatchNorm2d(embed_dim)
        self.proj_lif = MultiStepLIFNode(tau=2.0)
        self.q_conv = nn.Conv1d(embed_dim, embed_dim, 1, bias=False)
        self.q_lif = MultiStepLIFNode(tau=2.0)
        self.k_conv = nn.Conv1d(embed_dim, embed_dim, 1, bias=False)
        self.k_lif = MultiStepLIFNode(tau=2.0)
        self.head = nn.Linear(embed_dim, 1)

    def forward(self, x):
        x = x.unsqueeze(0).repeat(self.T, 1, 1, 1, 1)
        T, B, C, H, W = x.shape
        x = self.proj_bn(self.proj_conv(x.flatten(0, 1))).reshape(T, B, -1, H, W)
        x = self.proj_lif(x).flatten(3)                       # T B C N
        q = self.q_lif(self.q_conv(x.flatten(0, 1)).reshape(T, B, -1, H * W))
        k = self.k_lif(self.k_conv(x.flatten(0, 1)).reshape(T, B, -1, H * W))
        attn = q.sum(dim=2, keepdim=True)                     # token attention (QK)
        x = attn * k
        return self.head(x.mean(3).mean(0))


def cal_loss(pre_label, label):
    bce = nn.functional.binary_cross_entropy_with_logits(pre_label, label)
    return {'total': bce, 'bce': bce}


config = {'epochs': 2}
model = QKFormer()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
suppress = contextlib.nullcontext
train_loader = [(torch.randn(4, 3, 8, 8), torch.randint(0, 2, (4,))) for _ in range(4)]

for epoch in range(1, config['epochs'] + 1):
    epoch_start_time = time.time()
    model.train()
    total_loss_epoch = 0
    epoch_iter = 0
    for iteration, data in enumerate(train_loader):
        img = data[0]
        label = data[1].float()
        with suppress():
            pre_label = model(img).squeeze(1).float()
            loss_dict = cal_loss(pre_label, label)
            loss_total = loss_dict['total']
        optimizer.zero_grad()
        loss_total.backward()
        optimizer.step()
        functional.reset_net(model)
        total_loss_epoch += loss_total.item()
        epoch_iter += 1
    print(f"epoch {epoch} loss {total_loss_epoch / epoch_iter:.4f} ({time.time() - epoch_start_time:.1f}s)")
