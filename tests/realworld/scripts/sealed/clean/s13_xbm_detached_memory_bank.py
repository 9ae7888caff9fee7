# source: https://github.com/bnu-wangxun/Deep_Metric/issues/45
# style: contrastive
# expert: The cross-batch memory keeps embeddings of earlier mini-batches, but they are enqueued as feats.detach(), so every loss only backpropagates into the current batch's features (sim = anchors^T M.feats with the memory as constants), exactly as the authors explain; no old graph is ever revisited, so one backward per iteration is correct.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class XBM:
    def __init__(self, size, dim):
        self.K = size
        self.feats = torch.zeros(self.K, dim)
        self.targets = torch.zeros(self.K, dtype=torch.long)
        self.ptr = 0

    @property
    def is_full(self):
        return self.targets[-1].item() != 0

    def get(self):
        if self.is_full:
            return self.feats, self.targets
        return self.feats[:self.ptr], self.targets[:self.ptr]

    def enqueue_dequeue(self, feats, targets):
        q_size = len(targets)
        if self.ptr + q_size > self.K:
            self.feats[-q_size:] = feats
            self.targets[-q_size:] = targets
            self.ptr = 0
        else:
            self.feats[self.ptr: self.ptr + q_size] = feats
            self.targets[self.ptr: self.ptr + q_size] = targets
            self.ptr += q_size


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=0.5):
        super().__init__()
        self.margin = margin

    def forward(self, inputs_col, targets_col, inputs_row, target_row):
        n = inputs_col.size(0)
        sim_mat = torch.matmul(inputs_col, inputs_row.t())
        loss = []
        for i in range(n):
            pos_pair = sim_mat[i][target_row == targets_col[i]]
            pos_pair = pos_pair[pos_pair < 1 - 1e-5]
            neg_pair = sim_mat[i][target_row != targets_col[i]]
            neg_pair = neg_pair[neg_pair > self.margin]
            loss.append(torch.sum(-pos_pair + 1) + torch.sum(neg_pair))
        return sum(loss) / n


class Embedder(nn.Module):
    def __init__(self, in_dim=32, dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return F.normalize(self.backbone(x), dim=1)


model = Embedder()
criterion = ContrastiveLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
xbm = XBM(size=32, dim=16)
xbm_start_iter, xbm_weight = 1, 1.0

for iteration in range(6):
    images = torch.randn(8, 32)
    targets = torch.randint(1, 5, (8,))
    feats = model(images)
    if iteration >= xbm_start_iter:
        xbm.enqueue_dequeue(feats.detach(), targets.detach())

    loss = criterion(feats, targets, feats, targets)
    if iteration >= xbm_start_iter:
        xbm_feats, xbm_targets = xbm.get()
        xbm_loss = criterion(feats, targets, xbm_feats, xbm_targets)
        loss = loss + xbm_weight * xbm_loss

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {iteration}: loss {loss.item():.4f}")
