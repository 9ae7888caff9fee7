# source: https://github.com/msight-tech/research-xbm/issues/6
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 1 line 7
# expert: do_train (defined in the training-function cell) enqueues the live embeddings into the cross-batch memory (xbm.enqueue_dequeue(feats, targets)); the copy makes the memory bank part of this iteration's graph, so the next iteration's xbm_loss backpropagates into the freed graph of earlier batches; enqueue feats.detach() and targets.detach() as the repository does and the maintainer confirms
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from argparse import Namespace
torch.manual_seed(0)

class ContrastiveLoss(nn.Module):
    def __init__(self, margin=0.5):
        super(ContrastiveLoss, self).__init__()
        self.margin = margin

    def forward(self, inputs_col, inputs_row, targets_col, targets_row):
        n = inputs_col.size(0)
        sim_mat = torch.matmul(inputs_col, inputs_row.t())
        epsilon = 1e-5
        loss = list()
        neg_count = 0
        for i in range(n):
            pos_pair_ = torch.masked_select(sim_mat[i], targets_col[i] == targets_row)
            pos_pair_ = torch.masked_select(pos_pair_, pos_pair_ < 1 - epsilon)
            neg_pair_ = torch.masked_select(sim_mat[i], targets_col[i] != targets_row)
            neg_pair = torch.masked_select(neg_pair_, neg_pair_ > self.margin)
            pos_loss = torch.sum(-pos_pair_ + 1)
            if len(neg_pair) > 0:
                neg_loss = torch.sum(neg_pair)
                neg_count += len(neg_pair)
            else:
                neg_loss = 0
            loss.append(pos_loss + neg_loss)
        loss = sum(loss) / n
        return loss

class XBM:
    def __init__(self, cfg):
        self.K = cfg.XBM.SIZE
        self.feats = torch.zeros(self.K, cfg.MODEL.HEAD.DIM)
        self.targets = torch.zeros(self.K, dtype=torch.long)
        self.ptr = 0

    @property
    def is_full(self):
        return self.targets[-1].item() != 0

    def get(self):
        if self.is_full:
            return self.feats, self.targets
        else:
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

class Embedder(nn.Module):
    def __init__(self, dim):
        super(Embedder, self).__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.head = nn.Linear(16, dim)

    def forward(self, x):
        return F.normalize(self.head(self.backbone(x)), dim=1)
# %%
def do_train(cfg, model, train_loader, optimizer, criterion, xbm):
    model.train()
    for iteration, (imgs, targets) in enumerate(train_loader, start=1):
        feats = model(imgs)

        if cfg.XBM.ENABLE and iteration > cfg.XBM.START_ITERATION:
            xbm.enqueue_dequeue(feats, targets)

        loss = criterion(feats, feats, targets, targets)
        log_info = {"batch_loss": loss.item()}

        if cfg.XBM.ENABLE and iteration > cfg.XBM.START_ITERATION:
            xbm_feats, xbm_targets = xbm.get()
            xbm_loss = criterion(feats, xbm_feats, targets, xbm_targets)
            log_info["xbm_loss"] = xbm_loss.item()
            loss = loss + cfg.XBM.WEIGHT * xbm_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(iteration, log_info)
# %%
cfg = Namespace(XBM=Namespace(ENABLE=True, SIZE=32, START_ITERATION=0, WEIGHT=1.0), MODEL=Namespace(HEAD=Namespace(DIM=8)))
model = Embedder(cfg.MODEL.HEAD.DIM)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
criterion = ContrastiveLoss()
xbm = XBM(cfg)
train_loader = [(torch.randn(6, 10), torch.tensor([1, 1, 2, 2, 3, 3])) for _ in range(3)]
# %%
do_train(cfg, model, train_loader, optimizer, criterion, xbm)
