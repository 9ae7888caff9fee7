# rotary_embedding_torch/rotary_embedding_torch.py at 0.5.2 (trimmed: lang freqs only, no xpos, einops replaced)
from math import pi

import torch
from torch import nn, einsum


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


def rotate_half(x):
    x = x.unflatten(-1, (-1, 2))
    x1, x2 = x.unbind(dim=-1)
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)


def apply_rotary_emb(freqs, t, start_index=0, scale=1., seq_dim=-2):
    if t.ndim == 3:
        seq_len = t.shape[seq_dim]
        freqs = freqs[-seq_len:].to(t)
    rot_dim = freqs.shape[-1]
    end_index = start_index + rot_dim
    t_left, t, t_right = t[..., :start_index], t[..., start_index:end_index], t[..., end_index:]
    t = (t * freqs.cos() * scale) + (rotate_half(t) * freqs.sin() * scale)
    return torch.cat((t_left, t, t_right), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, custom_freqs=None, freqs_for='lang', theta=10000, max_freq=10,
                 num_freqs=1, learned_freq=False, interpolate_factor=1., seq_before_head_dim=False):
        super().__init__()
        self.freqs_for = freqs_for
        if exists(custom_freqs):
            freqs = custom_freqs
        elif freqs_for == 'lang':
            freqs = 1. / (theta ** (torch.arange(0, dim, 2)[:(dim // 2)].float() / dim))
        elif freqs_for == 'pixel':
            freqs = torch.linspace(1., max_freq / 2, dim // 2) * pi
        elif freqs_for == 'constant':
            freqs = torch.ones(num_freqs).float()

        self.tmp_store('cached_freqs', None)

        self.freqs = nn.Parameter(freqs, requires_grad=learned_freq)
        self.learned_freq = learned_freq
        self.seq_before_head_dim = seq_before_head_dim
        self.default_seq_dim = -3 if seq_before_head_dim else -2
        self.interpolate_factor = interpolate_factor

    def tmp_store(self, key, value):
        self.register_buffer(key, value, persistent=False)

    def get_seq_pos(self, seq_len, device, dtype, offset=0):
        return (torch.arange(seq_len, device=device, dtype=dtype) + offset) / self.interpolate_factor

    def rotate_queries_or_keys(self, t, seq_dim=None, offset=0, freq_seq_len=None):
        seq_dim = default(seq_dim, self.default_seq_dim)
        device, dtype, seq_len = t.device, t.dtype, t.shape[seq_dim]
        if exists(freq_seq_len):
            seq_len = freq_seq_len
        freqs = self.forward(self.get_seq_pos(seq_len, device=device, dtype=dtype, offset=offset),
                             seq_len=seq_len, offset=offset)
        if seq_dim == -3:
            freqs = freqs.unsqueeze(1)
        return apply_rotary_emb(freqs, t, seq_dim=seq_dim)

    def forward(self, t, seq_len=None, offset=0):
        should_cache = (
            not self.learned_freq and
            exists(seq_len) and
            self.freqs_for != 'pixel'
        )

        if (
            should_cache and
            exists(self.cached_freqs) and
            (offset + seq_len) <= self.cached_freqs.shape[0]
        ):
            return self.cached_freqs[offset:(offset + seq_len)]

        freqs = self.freqs

        freqs = einsum('..., f -> ... f', t.type(freqs.dtype), freqs)
        freqs = freqs.repeat_interleave(2, dim=-1)

        if should_cache:
            self.tmp_store('cached_freqs', freqs)

        return freqs
