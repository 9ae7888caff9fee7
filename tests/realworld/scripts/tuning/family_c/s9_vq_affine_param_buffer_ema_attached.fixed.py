# source: variant of https://github.com/lucidrains/vector-quantize-pytorch/pull/57
# style: quant
# cause: graph_kept_alive
# line: 42
# expert: With learnable_codebook=True and affine_param=True, update_with_decay stores the EMA of the codebook/batch statistics as buffers that are still attached to the graph (they come from the learnable codebook Parameter and the encoder output), and the recursive EMA formula chains every step's graph onto the previous one, so memory grows until OOM. The merged fix detaches new_value before registering it as a buffer and inside the EMA formula.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)


def exists(val):
    return val is not None


class EuclideanCodebook(nn.Module):
    def __init__(self, dim, codebook_size, learnable_codebook=False, affine_param=False,
                 affine_param_batch_decay=0.99, affine_param_codebook_decay=0.9):
        super().__init__()
        embed = torch.randn(1, codebook_size, dim)
        self.codebook_size = codebook_size
        self.learnable_codebook = learnable_codebook
        if learnable_codebook:
            self.embed = nn.Parameter(embed)
        else:
            self.register_buffer('embed', embed)

        self.affine_param = affine_param
        self.affine_param_batch_decay = affine_param_batch_decay
        self.affine_param_codebook_decay = affine_param_codebook_decay
        self.register_buffer('batch_mean', None)
        self.register_buffer('batch_variance', None)
        self.register_buffer('codebook_mean', None)
        self.register_buffer('codebook_variance', None)

    def update_with_decay(self, buffer_name, new_value, decay):
        old_value = getattr(self, buffer_name)
        if not exists(old_value):
            self.register_buffer(buffer_name, new_value.detach())
            return
        value = old_value * decay + new_value.detach() * (1 - decay)
        self.register_buffer(buffer_name, value)

    def update_affine(self, data, embed):
        var_fn = lambda t: torch.var(t, dim=-2, keepdim=True, unbiased=False)
        self.update_with_decay('codebook_mean', embed.mean(dim=-2, keepdim=True), self.affine_param_codebook_decay)
        self.update_with_decay('codebook_variance', var_fn(embed), self.affine_param_codebook_decay)
        self.update_with_decay('batch_mean', data.mean(dim=-2, keepdim=True), self.affine_param_batch_decay)
        self.update_with_decay('batch_variance', var_fn(data), self.affine_param_batch_decay)

    def forward(self, x):
        flatten = x.reshape(1, -1, x.shape[-1])
        if self.affine_param:
            self.update_affine(flatten, self.embed)

        embed = self.embed if self.learnable_codebook else self.embed.detach()
        if self.affine_param:
            codebook_std = self.codebook_variance.clamp(min=1e-5).sqrt()
            batch_std = self.batch_variance.clamp(min=1e-5).sqrt()
            embed = (embed - self.codebook_mean) * (batch_std / codebook_std) + self.batch_mean

        dist = -torch.cdist(flatten, embed, p=2)
        embed_ind = dist.argmax(dim=-1)
        quantize = F.embedding(embed_ind[0], self.embed[0])
        return quantize.reshape(x.shape), embed_ind, dist


class VectorQuantize(nn.Module):
    def __init__(self, dim, codebook_size, commitment_weight=1.0, **kwargs):
        super().__init__()
        self._codebook = EuclideanCodebook(dim, codebook_size, **kwargs)
        self.commitment_weight = commitment_weight

    def forward(self, x):
        quantize, embed_ind, dist = self._codebook(x)
        commit_loss = F.mse_loss(quantize, x.detach())
        quantize = x + (quantize - x).detach()  # straight-through
        return quantize, embed_ind, commit_loss * self.commitment_weight


encoder = nn.Linear(16, 8)
decoder = nn.Linear(8, 16)
vq = VectorQuantize(dim=8, codebook_size=32, learnable_codebook=True, affine_param=True)
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()) + list(vq.parameters()), lr=1e-3)

for step in range(10):
    clip_embeds = torch.randn(64, 16)
    x = encoder(clip_embeds)
    quantized, _, commit_loss = vq(x)
    recon = decoder(quantized)
    loss = F.mse_loss(recon, clip_embeds) + commit_loss
    opt.zero_grad()
    loss.backward()
    opt.step()

print("batch_mean grad_fn:", vq._codebook.batch_mean.grad_fn)
