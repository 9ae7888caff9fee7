# source: https://github.com/thuml/Anomaly-Transformer/issues/1
# scenario: earlier_function
# cause: inplace_modified_saved_tensor
# root: cell 1 line 44
# expert: Solver.train (defined in the solver cell) steps the optimizer between loss1.backward(retain_graph=True) and loss2.backward(); the step updates the weights in place while loss2's graph (shared with loss1) still needs them; drop the first self.optimizer.step() so both backward passes run before one step (the fix the reporter confirmed)
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
class Solver(object):
    def __init__(self, config):
        self.__dict__.update(config)
        self.model = AnomalyTransformer(win_size=self.win_size, enc_in=self.input_c, c_out=self.output_c, e_layers=2)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        self.criterion = nn.MSELoss()

    def train(self):
        for epoch in range(self.num_epochs):
            loss1_list = []
            self.model.train()
            for i, (input_data, labels) in enumerate(self.train_loader):
                self.optimizer.zero_grad()
                input = input_data.float()
                output, series, prior, _ = self.model(input)

                # calculate Association discrepancy
                series_loss = 0.0
                prior_loss = 0.0
                for u in range(len(prior)):
                    series_loss += (torch.mean(my_kl_loss(series[u], (
                            prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                   self.win_size)).detach())) + torch.mean(
                        my_kl_loss((prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                           self.win_size)).detach(),
                                   series[u])))
                    prior_loss += (torch.mean(my_kl_loss(
                        (prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                self.win_size)),
                        series[u].detach())) + torch.mean(
                        my_kl_loss(series[u].detach(), (
                                prior[u] / torch.unsqueeze(torch.sum(prior[u], dim=-1), dim=-1).repeat(1, 1, 1,
                                                                                                       self.win_size)))))
                series_loss = series_loss / len(prior)
                prior_loss = prior_loss / len(prior)

                rec_loss = self.criterion(output, input)
                loss1_list.append((rec_loss - self.k * series_loss).item())
                loss1 = rec_loss - self.k * series_loss
                loss2 = rec_loss + self.k * prior_loss

                # Minimax strategy
                loss1.backward(retain_graph=True)
                self.optimizer.step()
                loss2.backward()
                self.optimizer.step()
            print("Epoch: {0}, Train Loss: {1:.7f}".format(epoch + 1, np.average(loss1_list)))
# %%
config = dict(win_size=6, input_c=3, output_c=3, lr=1e-4, k=3, num_epochs=1,
              train_loader=[(torch.randn(2, 6, 3), torch.zeros(2, 6)) for _ in range(2)])
solver = Solver(config)
solver.train()
