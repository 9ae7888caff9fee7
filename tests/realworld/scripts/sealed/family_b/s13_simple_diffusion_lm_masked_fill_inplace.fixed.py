# source: https://github.com/thorinf/simple-diffusion-lm/issues/2
# style: diffusion
# cause: inplace_modified_saved_tensor
# line: 76
# expert: nn.Embedding saved the LongTensor of token ids w for its backward, and w.masked_fill_(...) overwrites those ids in place (version 0 -> 1) to put the -100 ignore labels, so backward fails; keep the out-of-place w = w.masked_fill(...) of the original code (or clone the ids first, as the reporter did).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Estimator(nn.Module):
    def __init__(self, dim, num_layers=2, num_heads=4):
        super().__init__()
        self.time_mlp = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, dim))
        layer = nn.TransformerEncoderLayer(dim, num_heads, dim * 2, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x_t, t, len_mask):
        h = x_t + self.time_mlp(t.view(-1, 1, 1).expand(-1, x_t.size(1), 1))
        h = self.encoder(h, src_key_padding_mask=~len_mask)
        return self.proj(h)


class Diffusion(nn.Module):
    def __init__(self, estimator):
        super().__init__()
        self.estimator = estimator

    @staticmethod
    def alpha_bar(t):
        return torch.cos(t * math.pi / 2).pow(2).clamp(1e-4, 1.0)

    def compute_loss(self, x_0, len_mask, cond_mask):
        t = torch.rand(x_0.size(0))
        a = self.alpha_bar(t).view(-1, 1, 1)
        noise = torch.randn_like(x_0)
        x_t = a.sqrt() * x_0 + (1 - a).sqrt() * noise
        # conditional positions keep their clean embeddings
        x_t = torch.where(cond_mask.unsqueeze(-1), x_0, x_t)
        x_0_estimation = self.estimator(x_t, t, len_mask)
        loss = (x_0_estimation - x_0).pow(2)
        return loss, x_0_estimation


class DiffusionLM(nn.Module):
    def __init__(self, num_embeddings=50, embedding_dim=32, embedding_grad_scale=0.1, dropout_prob=0.1):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.embedding_grad_scale = embedding_grad_scale
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)
        self.estimator = Estimator(embedding_dim)
        self.diffusion = Diffusion(estimator=self.estimator)
        self.dropout = nn.Dropout(p=dropout_prob)
        self.lm_head = nn.Linear(self.embedding_dim, num_embeddings)
        self.loss_ce = nn.CrossEntropyLoss(reduction='none')

    def compute_loss(self, w, lengths):
        x = self.embedding(w)
        x = F.normalize(x, dim=-1) * math.sqrt(self.embedding_dim)
        x = self.embedding_grad_scale * x + (1.0 - self.embedding_grad_scale) * x.detach()

        len_mask = torch.arange(w.shape[1], device=w.device).unsqueeze(0) < lengths.unsqueeze(1)
        # conditional masking could be much better. if true, use original embeddings
        cond_mask = torch.rand(w.shape, device=w.device) < 0.1
        diff_mask = len_mask & torch.logical_not(cond_mask)

        loss_diff, x_0_estimation = self.diffusion.compute_loss(x, len_mask, cond_mask)
        loss_diff = loss_diff[diff_mask].mean(-1)

        logits = self.lm_head(self.dropout(x_0_estimation))
        w = w.masked_fill(torch.logical_not(diff_mask), -100)
        loss_reconstruction = self.loss_ce(logits.transpose(2, 1), w)

        accuracy = (logits.argmax(dim=-1) == w).float().sum() / diff_mask.sum()

        loss_diff = loss_diff.mean()
        loss_reconstruction = loss_reconstruction.sum() / diff_mask.sum()
        loss = loss_diff + loss_reconstruction
        return loss, loss_diff, loss_reconstruction, accuracy


model = DiffusionLM()
optim = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(2):
    w = torch.randint(0, 50, (8, 12))          # token ids of a batch of sentences
    lengths = torch.randint(6, 13, (8,))
    optim.zero_grad()
    loss, loss_diff, loss_reconstruction, accuracy = model.compute_loss(w, lengths)
    loss.backward()
    optim.step()
    print(f"step {step}: loss {loss.item():.4f} diff {loss_diff.item():.4f} "
          f"recon {loss_reconstruction.item():.4f} acc {accuracy.item():.3f}")
