# source: https://github.com/HobbitLong/RepDistiller/issues/37
# scenario: clean
# order: 0 1 2 2
# expert: clean: CRD's ContrastMemory keeps a memory bank of embeddings across iterations (and across re-runs of the training cell), but the negatives it reads are index_select(...).detach() and the bank is updated in place under torch.no_grad() after the scores are computed, and the teacher features come from a no_grad forward; every step builds and frees its own graph, and (as the maintainer answered) the update order only changes which sample values are read, not the autograd
# %%
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
eps = 1e-7


class ContrastMemory(nn.Module):
    """memory buffer that supplies large amount of negative samples."""
    def __init__(self, inputSize, outputSize, K, T=0.07, momentum=0.5):
        super(ContrastMemory, self).__init__()
        self.nLem = outputSize
        self.K = K
        self.register_buffer('params', torch.tensor([K, T, -1, -1, momentum]))
        stdv = 1. / math.sqrt(inputSize / 3)
        self.register_buffer('memory_v1', torch.rand(outputSize, inputSize).mul_(2 * stdv).add_(-stdv))
        self.register_buffer('memory_v2', torch.rand(outputSize, inputSize).mul_(2 * stdv).add_(-stdv))

    def forward(self, v1, v2, y, idx=None):
        K = int(self.params[0].item())
        T = self.params[1].item()
        Z_v1 = self.params[2].item()
        Z_v2 = self.params[3].item()
        momentum = self.params[4].item()
        batchSize = v1.size(0)
        outputSize = self.memory_v1.size(0)
        inputSize = self.memory_v1.size(1)

        if idx is None:
            idx = torch.randint(outputSize, (batchSize, self.K + 1))
            idx.select(1, 0).copy_(y.data)
        # sample
        weight_v1 = torch.index_select(self.memory_v1, 0, idx.view(-1)).detach()
        weight_v1 = weight_v1.view(batchSize, K + 1, inputSize)
        out_v2 = torch.bmm(weight_v1, v2.view(batchSize, inputSize, 1))
        out_v2 = torch.exp(torch.div(out_v2, T))
        # sample
        weight_v2 = torch.index_select(self.memory_v2, 0, idx.view(-1)).detach()
        weight_v2 = weight_v2.view(batchSize, K + 1, inputSize)
        out_v1 = torch.bmm(weight_v2, v1.view(batchSize, inputSize, 1))
        out_v1 = torch.exp(torch.div(out_v1, T))

        # set Z if haven't been set yet
        if Z_v1 < 0:
            self.params[2] = out_v1.mean() * outputSize
            Z_v1 = self.params[2].clone().detach().item()
        if Z_v2 < 0:
            self.params[3] = out_v2.mean() * outputSize
            Z_v2 = self.params[3].clone().detach().item()

        out_v1 = torch.div(out_v1, Z_v1).contiguous()
        out_v2 = torch.div(out_v2, Z_v2).contiguous()

        # update memory
        with torch.no_grad():
            l_pos = torch.index_select(self.memory_v1, 0, y.view(-1))
            l_pos.mul_(momentum)
            l_pos.add_(torch.mul(v1, 1 - momentum))
            l_norm = l_pos.pow(2).sum(1, keepdim=True).pow(0.5)
            updated_v1 = l_pos.div(l_norm)
            self.memory_v1.index_copy_(0, y, updated_v1)

            ab_pos = torch.index_select(self.memory_v2, 0, y.view(-1))
            ab_pos.mul_(momentum)
            ab_pos.add_(torch.mul(v2, 1 - momentum))
            ab_norm = ab_pos.pow(2).sum(1, keepdim=True).pow(0.5)
            updated_v2 = ab_pos.div(ab_norm)
            self.memory_v2.index_copy_(0, y, updated_v2)

        return out_v1, out_v2


class ContrastLoss(nn.Module):
    def __init__(self, n_data):
        super(ContrastLoss, self).__init__()
        self.n_data = n_data

    def forward(self, x):
        bsz = x.shape[0]
        m = x.size(1) - 1
        Pn = 1 / float(self.n_data)
        P_pos = x.select(1, 0)
        log_D1 = torch.div(P_pos, P_pos.add(m * Pn + eps)).log_()
        P_neg = x.narrow(1, 1, m)
        log_D0 = torch.div(P_neg.clone().fill_(m * Pn), P_neg.add(m * Pn + eps)).log_()
        loss = - (log_D1.sum(0) + log_D0.view(-1, 1).sum(0)) / bsz
        return loss


class Embed(nn.Module):
    def __init__(self, dim_in, dim_out):
        super(Embed, self).__init__()
        self.linear = nn.Linear(dim_in, dim_out)

    def forward(self, x):
        x = self.linear(x.view(x.shape[0], -1))
        return F.normalize(x, dim=1)


class CRDLoss(nn.Module):
    def __init__(self, s_dim, t_dim, feat_dim, n_data, nce_k, nce_t=0.07, nce_mom=0.5):
        super(CRDLoss, self).__init__()
        self.embed_s = Embed(s_dim, feat_dim)
        self.embed_t = Embed(t_dim, feat_dim)
        self.contrast = ContrastMemory(feat_dim, n_data, nce_k, nce_t, nce_mom)
        self.criterion_t = ContrastLoss(n_data)
        self.criterion_s = ContrastLoss(n_data)

    def forward(self, f_s, f_t, idx, contrast_idx=None):
        f_s = self.embed_s(f_s)
        f_t = self.embed_t(f_t)
        out_s, out_t = self.contrast(f_s, f_t, idx, contrast_idx)
        s_loss = self.criterion_s(out_s)
        t_loss = self.criterion_t(out_t)
        return s_loss + t_loss
# %%
n_data = 64
images = torch.randn(n_data, 20)
labels = torch.randint(5, (n_data,))
model_s = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5))
model_t = nn.Sequential(nn.Linear(20, 24), nn.ReLU(), nn.Linear(24, 5))
model_t.eval()
criterion_kd = CRDLoss(s_dim=16, t_dim=24, feat_dim=8, n_data=n_data, nce_k=8)
trainable_list = nn.ModuleList([model_s, criterion_kd.embed_s, criterion_kd.embed_t])
optimizer = torch.optim.SGD(trainable_list.parameters(), lr=0.05, momentum=0.9)
# %%
for idx in torch.randperm(n_data).split(16):
    input, target = images[idx], labels[idx]
    feat_s = model_s[:2](input)
    logit_s = model_s[2](feat_s)
    with torch.no_grad():
        feat_t = model_t[:2](input)
        feat_t = feat_t.detach()

    loss_cls = F.cross_entropy(logit_s, target)
    loss_kd = criterion_kd(feat_s, feat_t, idx)
    loss = loss_cls + 0.8 * loss_kd

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"loss={loss.item():.4f}")
