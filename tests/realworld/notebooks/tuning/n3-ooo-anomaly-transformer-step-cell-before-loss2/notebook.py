# source: variant of https://github.com/thuml/Anomaly-Transformer/issues/1
# scenario: out_of_order
# cause: inplace_modified_saved_tensor
# root: cell 5 line 1
# order: 0 1 2 3 5 4
# expert: the minimax step is split over cells; the optimizer-step cell was run right after loss1.backward(retain_graph=True) and before the loss2 cell, so the step updated the weights in place while loss2's graph still needed them; step only once after both backward passes (the fix the reporter confirmed): do the step in the loss2 cell, after loss2.backward()
# %%
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

def my_kl_loss(p, q):
    res = p * (torch.log(p + 0.0001) - torch.log(q + 0.0001))
    return torch.mean(torch.sum(res, dim=-1), dim=1)

class AnomalyAttention(nn.Module):
    def __init__(self, win_size, d_model, n_heads):
        super(AnomalyAttention, self).__init__()
        self.n_heads = n_heads
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.sigma_projection = nn.Linear(d_model, n_heads)
        idx = torch.arange(win_size)
        self.distances = (idx[:, None] - idx[None, :]).abs().float()

    def forward(self, x):
        B, L, D = x.shape
        H = self.n_heads
        q = self.query(x).view(B, L, H, -1).transpose(1, 2)
        k = self.key(x).view(B, L, H, -1).transpose(1, 2)
        v = self.value(x).view(B, L, H, -1).transpose(1, 2)
        series = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.size(-1)), dim=-1)
        sigma = torch.sigmoid(self.sigma_projection(x) * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        sigma = sigma.transpose(1, 2).unsqueeze(-1).repeat(1, 1, 1, L)
        prior = 1.0 / (math.sqrt(2 * math.pi) * sigma) * torch.exp(-self.distances ** 2 / 2 / (sigma ** 2))
        out = (series @ v).transpose(1, 2).reshape(B, L, D)
        return out, series, prior

class AnomalyTransformer(nn.Module):
    def __init__(self, win_size, enc_in, c_out, d_model=8, n_heads=2, e_layers=2):
        super(AnomalyTransformer, self).__init__()
        self.embedding = nn.Linear(enc_in, d_model)
        self.layers = nn.ModuleList([AnomalyAttention(win_size, d_model, n_heads) for _ in range(e_layers)])
        self.projection = nn.Linear(d_model, c_out)

    def forward(self, x):
        enc_out = self.embedding(x)
        series_list, prior_list = [], []
        for layer in self.layers:
            enc_out, series, prior = layer(enc_out)
            series_list.append(series)
            prior_list.append(prior)
        return self.projection(enc_out), series_list, prior_list, None
# %%
win_size, k = 6, 3
model = AnomalyTransformer(win_size=win_size, enc_in=3, c_out=3, e_layers=2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = nn.MSELoss()
input = torch.randn(2, win_size, 3)
# %%
optimizer.zero_grad()
output, series, prior, _ = model(input)
series_loss = 0.0
prior_loss = 0.0
for u in range(len(prior)):
    p = prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1, win_size)
    series_loss += torch.mean(my_kl_loss(series[u], p.detach())) + torch.mean(my_kl_loss(p.detach(), series[u]))
    prior_loss += torch.mean(my_kl_loss(p, series[u].detach())) + torch.mean(my_kl_loss(series[u].detach(), p))
series_loss = series_loss / len(prior)
prior_loss = prior_loss / len(prior)
rec_loss = criterion(output, input)
loss1 = rec_loss - k * series_loss
loss2 = rec_loss + k * prior_loss
# %%
# Minimax strategy: maximize phase
loss1.backward(retain_graph=True)
# %%
# minimize phase
loss2.backward()
# %%
optimizer.step()
print(loss1.item(), loss2.item())
