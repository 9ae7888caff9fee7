# source: https://github.com/arxyzan/data2vec-pytorch/issues/11
# style: distillation
# expert: The student encodes the masked input with gradients while the EMA teacher encodes the complementary view (`~mask`) inside `torch.no_grad()` in eval mode, and the EMA step copies weights without autograd, so the regression target carries no graph and nothing stale crosses steps; the maintainer confirms the inverted mask for the teacher is intended.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class EMA:
    def __init__(self, model, decay=0.999):
        self.model = copy.deepcopy(model)
        self.model.requires_grad_(False)
        self.decay = decay

    def step(self, new_model):
        with torch.no_grad():
            for ema_p, p in zip(self.model.parameters(), new_model.parameters()):
                ema_p.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)


class Encoder(nn.Module):
    def __init__(self, dim=8, layers=3):
        super().__init__()
        self.mask_emb = nn.Parameter(torch.zeros(dim))
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(dim, 2, 16, dropout=0.0, batch_first=True)
                                     for _ in range(layers)])

    def forward(self, x, mask=None):
        if mask is not None:
            x = torch.where(mask[..., None], self.mask_emb.expand_as(x), x)
        states = []
        for layer in self.layers:
            x = layer(x)
            states.append(x)
        return {"encoder_out": x, "encoder_states": states}


class Data2Vec(nn.Module):
    def __init__(self, encoder, dim=8, average_top_k_layers=2):
        super().__init__()
        self.encoder = encoder
        self.ema = EMA(encoder)
        self.average_top_k_layers = average_top_k_layers
        self.regression_head = nn.Linear(dim, dim)

    def ema_step(self):
        self.ema.step(self.encoder)

    def forward(self, src, trg=None, mask=None):
        x = self.encoder(src, mask)["encoder_out"]
        if trg is None:
            return x
        with torch.no_grad():
            self.ema.model.eval()
            y = self.ema.model(trg, ~mask)["encoder_states"]
            y = y[-self.average_top_k_layers:]
            y = sum(F.layer_norm(t, t.shape[-1:]) for t in y) / len(y)
        x = x[mask]
        y = y[mask]
        return self.regression_head(x), y


model = Data2Vec(Encoder())
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
for step in range(4):
    src = torch.randn(2, 10, 8)
    mask = torch.rand(2, 10) < 0.5
    x, y = model(src, src, mask)
    loss = F.smooth_l1_loss(x.float(), y.float(), beta=1.0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.ema_step()
    print(step, loss.item())
