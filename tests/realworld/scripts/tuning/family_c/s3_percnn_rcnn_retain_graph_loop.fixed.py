# source: https://github.com/isds-neu/PeRCNN/issues/3
# style: physics
# cause: graph_kept_alive
# line: 96
# expert: call loss.backward() without retain_graph=True: the recurrent rollout is rebuilt from the initial state every epoch, so nothing needs the old graph and keeping it only holds the whole unrolled graph alive
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(66)
np.random.seed(66)

lap_2d_op = [[[[0, 0, -1 / 12, 0, 0],
               [0, 0, 4 / 3, 0, 0],
               [-1 / 12, 4 / 3, -5, 4 / 3, -1 / 12],
               [0, 0, 4 / 3, 0, 0],
               [0, 0, -1 / 12, 0, 0]]]]


class upscaler(nn.Module):
    def __init__(self):
        super(upscaler, self).__init__()
        self.convnet = nn.Sequential(
            nn.ConvTranspose2d(2, 8, kernel_size=5, padding=2, stride=2, output_padding=1), nn.Sigmoid(),
            nn.Conv2d(8, 2, 1, 1, padding=0))

    def forward(self, h):
        return self.convnet(h)


class RCNNCell(nn.Module):
    def __init__(self, hidden_channels):
        super(RCNNCell, self).__init__()
        self.dx, self.dt, self.mu_up = 0.01, 0.5, 3.99e-5
        self.CA = nn.Parameter(torch.tensor(0.1))
        self.CB = nn.Parameter(torch.tensor(-0.1))
        self.W_laplace = nn.Conv2d(1, 1, 5, 1, padding=0, bias=False)
        self.W_laplace.weight.data = 1 / self.dx ** 2 * torch.tensor(lap_2d_op, dtype=torch.float32)
        self.W_laplace.weight.requires_grad = False
        self.Wh1_u, self.Wh2_u, self.Wh3_u = [nn.Conv2d(2, hidden_channels, 1) for _ in range(3)]
        self.Wh4_u = nn.Conv2d(hidden_channels, 1, 1)
        self.Wh1_v, self.Wh2_v, self.Wh3_v = [nn.Conv2d(2, hidden_channels, 1) for _ in range(3)]
        self.Wh4_v = nn.Conv2d(hidden_channels, 1, 1)

    def forward(self, h):
        h_pad = torch.cat((h[:, :, :, -2:], h, h[:, :, :, 0:2]), dim=3)
        h_pad = torch.cat((h_pad[:, :, -2:, :], h_pad, h_pad[:, :, 0:2, :]), dim=2)
        u_pad, v_pad = h_pad[:, 0:1, ...], h_pad[:, 1:2, ...]
        u_prev, v_prev = h[:, 0:1, ...], h[:, 1:2, ...]
        u_res = self.mu_up * torch.sigmoid(self.CA) * self.W_laplace(u_pad) + self.Wh4_u(self.Wh1_u(h) * self.Wh2_u(h) * self.Wh3_u(h))
        v_res = self.mu_up * torch.sigmoid(self.CB) * self.W_laplace(v_pad) + self.Wh4_v(self.Wh1_v(h) * self.Wh2_v(h) * self.Wh3_v(h))
        ch = torch.cat((u_prev + u_res * self.dt, v_prev + v_res * self.dt), dim=1)
        return ch, ch


class RCNN(nn.Module):
    def __init__(self, hidden_channels, init_state_low, step=1, effective_step=[1]):
        super(RCNN, self).__init__()
        self.step = step
        self.effective_step = effective_step
        self.init_state_low = init_state_low
        self.UpconvBlock = upscaler()
        self.crnn_cell = RCNNCell(hidden_channels)

    def forward(self):
        self.init_state = self.UpconvBlock(self.init_state_low)
        outputs = [self.init_state]
        second_last_state = []
        internal_state = self.init_state
        for step in range(self.step):
            h, o = self.crnn_cell(internal_state)
            internal_state = h
            if step == (self.step - 2):
                second_last_state = internal_state.clone()
            if step in self.effective_step:
                outputs.append(o)
        return outputs, second_last_state


def train(model, truth, n_iters, learning_rate):
    train_loss_list = []
    optimizer = optim.Adam(model.parameters(), lr=learning_rate)
    scheduler = StepLR(optimizer, step_size=200, gamma=0.985)
    mse_loss = nn.MSELoss()
    for epoch in range(n_iters):
        optimizer.zero_grad()
        output, second_last_state = model()
        output = torch.cat(tuple(output), dim=0)
        pred, gt = output[0:-1:2], truth[::2]
        idx = int(pred.shape[0] * 0.9)
        loss_data = mse_loss(pred[:idx], gt[:idx])
        loss_valid = mse_loss(pred[idx:], gt[idx:])
        loss = 40 * loss_data
        loss.backward()
        optimizer.step()
        scheduler.step()
        print('[%d/%d] loss_data: %.7f  loss_valid: %.7f' % (epoch + 1, n_iters, loss_data.item(), loss_valid.item()))
        train_loss_list.append(loss.item())
    return train_loss_list


init_state_low = torch.rand(1, 2, 8, 8)
steps = 11
model = RCNN(hidden_channels=4, init_state_low=init_state_low, step=steps, effective_step=list(range(0, steps)))
truth = torch.rand(steps, 2, 16, 16)
train(model, truth, n_iters=6, learning_rate=1e-3)
