# source: variant of https://github.com/thuanz123/enhancing-transformers/issues/11 (enhancing/modules/stage1/layers.py ViTEncoder/ViTDecoder at b1bdeaf with einops replaced by a small Rearrange module, a simplified l2-normalised vector quantizer, and the two-decoder use case on random images)
# style: vae
# cause: inplace_modified_saved_tensor
# line: 157
# expert: ViTDecoder.forward adds the positional embedding in place (token += self.de_pos_embedding), so when two decoders read the same quantized tokens the second call modifies quant after the first decoder's LayerNorm saved it for backward. The maintainer's fix (commit 1e5e8cc, corrected in c3a947e) replaces the in-place adds by out-of-place ones: x = token + self.de_pos_embedding; x = self.transformer(x) (and x = x + self.en_pos_embedding in the encoder).
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Rearrange(nn.Module):
    """Stand-in for einops.layers.torch.Rearrange for the two patterns used here."""

    def __init__(self, pattern, h=None):
        super().__init__()
        self.pattern = pattern
        self.h = h

    def forward(self, x):
        if self.pattern == 'b c h w -> b (h w) c':
            return x.flatten(2).transpose(1, 2).reshape(x.shape[0], -1, x.shape[1])
        b, n, c = x.shape  # 'b (h w) c -> b c h w'
        return x.transpose(1, 2).reshape(b, c, self.h, n // self.h)


def get_2d_sincos_pos_embed(embed_dim, grid_size):
    grid_size = (grid_size, grid_size) if type(grid_size) != tuple else grid_size
    grid_h = np.arange(grid_size[0], dtype=np.float32)
    grid_w = np.arange(grid_size[1], dtype=np.float32)
    grid = np.meshgrid(grid_w, grid_h)  # here w goes first
    grid = np.stack(grid, axis=0)
    grid = grid.reshape([2, 1, grid_size[0], grid_size[1]])
    return get_2d_sincos_pos_embed_from_grid(embed_dim, grid)


def get_2d_sincos_pos_embed_from_grid(embed_dim, grid):
    emb_h = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[0])
    emb_w = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[1])
    return np.concatenate([emb_h, emb_w], axis=1)


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    omega = np.arange(embed_dim // 2, dtype=np.float64)
    omega /= embed_dim / 2.
    omega = 1. / 10000**omega
    pos = pos.reshape(-1)
    out = np.einsum('m,d->md', pos, omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fn = fn

    def forward(self, x, **kwargs):
        return self.fn(self.norm(x), **kwargs)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden_dim), nn.Tanh(), nn.Linear(hidden_dim, dim))

    def forward(self, x):
        return self.net(x)


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.attend = nn.Softmax(dim=-1)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.reshape(b, n, self.heads, -1).transpose(1, 2), qkv)
        attn = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = self.attend(attn)
        out = torch.matmul(attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads, dim_head, mlp_dim):
        super().__init__()
        self.layers = nn.ModuleList([])
        for idx in range(depth):
            layer = nn.ModuleList([PreNorm(dim, Attention(dim, heads=heads, dim_head=dim_head)),
                                   PreNorm(dim, FeedForward(dim, mlp_dim))])
            self.layers.append(layer)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        return self.norm(x)


class ViTEncoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, depth, heads, mlp_dim, channels=3, dim_head=64):
        super().__init__()
        en_pos_embedding = get_2d_sincos_pos_embed(dim, (image_size // patch_size, image_size // patch_size))
        self.to_patch_embedding = nn.Sequential(
            nn.Conv2d(channels, dim, kernel_size=patch_size, stride=patch_size),
            Rearrange('b c h w -> b (h w) c'),
        )
        self.en_pos_embedding = nn.Parameter(torch.from_numpy(en_pos_embedding).float().unsqueeze(0), requires_grad=False)
        self.transformer = Transformer(dim, depth, heads, dim_head, mlp_dim)

    def forward(self, img):
        x = self.to_patch_embedding(img)
        x = x + self.en_pos_embedding
        x = self.transformer(x)
        return x


class VectorQuantizer(nn.Module):
    def __init__(self, embed_dim, n_embed, beta=0.25):
        super().__init__()
        self.embedding = nn.Embedding(n_embed, embed_dim)
        self.beta = beta

    def forward(self, z):
        z_norm = F.normalize(z, dim=-1)
        embedding_norm = F.normalize(self.embedding.weight, dim=-1)
        encoding_indices = torch.argmax(z_norm @ embedding_norm.t(), dim=-1)
        z_qnorm = F.normalize(self.embedding(encoding_indices), dim=-1)
        loss = self.beta * torch.mean((z_qnorm.detach() - z_norm) ** 2) + torch.mean((z_qnorm - z_norm.detach()) ** 2)
        z_qnorm = z_norm + (z_qnorm - z_norm).detach()   # straight-through
        return z_qnorm, loss, encoding_indices


class ViTDecoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, depth, heads, mlp_dim, channels=3, dim_head=64):
        super().__init__()
        de_pos_embedding = get_2d_sincos_pos_embed(dim, (image_size // patch_size, image_size // patch_size))
        self.transformer = Transformer(dim, depth, heads, dim_head, mlp_dim)
        self.de_pos_embedding = nn.Parameter(torch.from_numpy(de_pos_embedding).float().unsqueeze(0), requires_grad=False)
        self.to_pixel = nn.Sequential(
            Rearrange('b (h w) c -> b c h w', h=image_size // patch_size),
            nn.ConvTranspose2d(dim, channels, kernel_size=patch_size, stride=patch_size)
        )

    def forward(self, token):
        x = token + self.de_pos_embedding
        x = self.transformer(x)
        x = self.to_pixel(x)
        return x


cfg = dict(image_size=16, patch_size=4, dim=32, depth=1, heads=2, mlp_dim=64, dim_head=16)
encoder = ViTEncoder(**cfg)
quantizer = VectorQuantizer(embed_dim=32, n_embed=16)
decoder_a = ViTDecoder(**cfg)
decoder_b = ViTDecoder(**cfg)
params = [*encoder.parameters(), *quantizer.parameters(), *decoder_a.parameters(), *decoder_b.parameters()]
optimizer = torch.optim.Adam(params, lr=1e-4)

for step in range(2):
    img = torch.rand(2, 3, 16, 16)
    h = encoder(img)
    quant, emb_loss, _ = quantizer(h)
    rec_a = decoder_a(quant)
    rec_b = decoder_b(quant)
    loss = F.l1_loss(rec_a, img) + F.l1_loss(rec_b, img) + emb_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
