# source: https://github.com/OpenDriveLab/Openpilot-Deepdive/issues/6
# scenario: clean
# order: 0 1 2 3 3
# expert: none needed: as the maintainers answer in the issue, the GRU hidden state is deliberately carried through the whole sequence and only detached (hidden.clone().detach()) every optimize_per_n_step frames, where total_loss is backpropagated and reset to 0; every backward therefore sees only the last window's graph, and re-running the training cell starts each batch from a fresh zero hidden state.
# %%
import time
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn
from torch import optim

torch.manual_seed(0)
np.random.seed(0)
# get_hyperparameters() of main.py, scaled down
args = SimpleNamespace(batch_size=2, lr=1e-4, epochs=1, log_per_n_step=4, M=3, num_pts=5,
                       mtp_alpha=1.0, optimizer='sgd', optimize_per_n_step=3)
# %%
class SequencePlanningNetwork(nn.Module):
    """model.py's SequencePlanningNetwork; a two-conv backbone stands in for EfficientNet-b2."""

    def __init__(self, M, num_pts):
        super().__init__()
        self.M = M
        self.num_pts = num_pts
        self.backbone = nn.Sequential(nn.Conv2d(6, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU())

        self.plan_head = nn.Sequential(
            nn.BatchNorm2d(16),
            nn.Conv2d(16, 2, 1),  # 2, 4, 8
            nn.BatchNorm2d(2),
            nn.Flatten(),
            nn.ELU(),
        )
        self.gru = nn.GRU(input_size=64, hidden_size=16, bidirectional=True, batch_first=True)  # 32 out
        self.plan_head_tip = nn.Sequential(
            nn.Flatten(),
            nn.ELU(),
            nn.Linear(32, 64),
            nn.ReLU(),
            nn.Linear(64, M * (num_pts * 3 + 1))  # +1 for cls
        )

    def forward(self, x, hidden):
        features = self.backbone(x)

        raw_preds = self.plan_head(features)
        raw_preds, hidden = self.gru(raw_preds[:, None, :], hidden)  # N, L, H_in for batch_first=True
        raw_preds = self.plan_head_tip(raw_preds)

        pred_cls = raw_preds[:, :self.M]
        pred_trajectory = raw_preds[:, self.M:].reshape(-1, self.M, self.num_pts, 3)

        pred_xs = pred_trajectory[:, :, :, 0:1].exp()
        pred_ys = pred_trajectory[:, :, :, 1:2].sinh()
        pred_zs = pred_trajectory[:, :, :, 2:3]
        return pred_cls, torch.cat((pred_xs, pred_ys, pred_zs), dim=3), hidden


class MultipleTrajectoryPredictionLoss(nn.Module):
    def __init__(self, alpha, M, num_pts, distance_type='angle'):
        super().__init__()
        self.alpha = alpha
        self.M = M
        self.num_pts = num_pts
        self.distance_type = distance_type
        self.distance_func = nn.CosineSimilarity(dim=2)
        self.cls_loss = nn.CrossEntropyLoss()
        self.reg_loss = nn.SmoothL1Loss(reduction='none')

    def forward(self, pred_cls, pred_trajectory, gt):
        pred_trajectory = pred_trajectory.reshape(-1, self.M, self.num_pts, 3)
        with torch.no_grad():
            # step 1: calculate distance between gt and each prediction
            pred_end_positions = pred_trajectory[:, :, self.num_pts-1, :]  # B, M, 3
            gt_end_positions = gt[:, self.num_pts-1:, :].expand(-1, self.M, -1)  # B, 1, 3 -> B, M, 3
            distances = 1 - self.distance_func(pred_end_positions, gt_end_positions)  # B, M
            index = distances.argmin(dim=1)  # B

        gt_cls = index
        pred_trajectory = pred_trajectory[torch.tensor(range(len(gt_cls)), device=gt_cls.device), index, ...]  # B, num_pts, 3
        cls_loss = self.cls_loss(pred_cls, gt_cls)
        reg_loss = self.reg_loss(pred_trajectory, gt).mean(dim=(0, 1))
        return cls_loss, reg_loss


class SequenceBaselineV1(nn.Module):
    def __init__(self, M, num_pts, mtp_alpha, lr, optimizer, optimize_per_n_step=40) -> None:
        super().__init__()
        self.M = M
        self.num_pts = num_pts
        self.mtp_alpha = mtp_alpha
        self.lr = lr
        self.optimizer = optimizer
        self.net = SequencePlanningNetwork(M, num_pts)
        self.optimize_per_n_step = optimize_per_n_step  # for the gru module

    @staticmethod
    def configure_optimizers(args, model):
        optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=0.01)
        lr_scheduler = optim.lr_scheduler.StepLR(optimizer, 20, 0.9)
        return optimizer, lr_scheduler

    def forward(self, x, hidden=None):
        if hidden is None:
            hidden = torch.zeros((2, x.size(0), 16))
        return self.net(x, hidden)
# %%
# two random comma2k19-like sequences per batch: 8 frames of stacked 6x16x32 images and future poses
train_dataloader = [dict(seq_input_img=torch.randn(args.batch_size, 8, 6, 16, 32),
                         seq_future_poses=torch.randn(args.batch_size, 8, args.num_pts, 3).abs())
                    for _ in range(2)]
model = SequenceBaselineV1(args.M, args.num_pts, args.mtp_alpha, args.lr, args.optimizer, args.optimize_per_n_step)
optimizer, lr_scheduler = model.configure_optimizers(args, model)
loss = MultipleTrajectoryPredictionLoss(args.mtp_alpha, args.M, args.num_pts, distance_type='angle')
num_steps = 0
# %%
for epoch in range(args.epochs):
    for batch_idx, data in enumerate(train_dataloader):
        seq_inputs, seq_labels = data['seq_input_img'], data['seq_future_poses']
        bs = seq_labels.size(0)
        seq_length = seq_labels.size(1)

        hidden = torch.zeros((2, bs, 16))
        total_loss = 0
        for t in range(seq_length):
            num_steps += 1
            inputs, labels = seq_inputs[:, t, :, :, :], seq_labels[:, t, :, :]
            pred_cls, pred_trajectory, hidden = model(inputs, hidden)

            cls_loss, reg_loss = loss(pred_cls, pred_trajectory, labels)
            total_loss += (cls_loss + args.mtp_alpha * reg_loss.mean()) / model.optimize_per_n_step

            if (t + 1) % model.optimize_per_n_step == 0:
                hidden = hidden.clone().detach()
                optimizer.zero_grad()
                total_loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                print('loss/total', num_steps, float(total_loss))
                total_loss = 0

        if not isinstance(total_loss, int):
            optimizer.zero_grad()
            total_loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            print('loss/total', num_steps, float(total_loss))

    lr_scheduler.step()
