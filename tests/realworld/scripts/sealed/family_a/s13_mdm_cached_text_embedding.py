# source: variant of https://github.com/GuyTevet/motion-diffusion-model/issues/151
# style: diffusion
# cause: computed_before_loop
# line: 47
# expert: The text condition is computed once and cached (cached_property) so that it is not re-encoded at every step; that is fine for sampling, but in training the cached embedding comes out of the trainable embed_text layer, so its graph is freed by the first loss.backward() and every later step backpropagates into it again. As the maintainer answers, the caching is possible at inference but not in training: recompute the text embedding inside forward at every training step.
from functools import cached_property

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FrozenTextEncoder(nn.Module):
    """Stand-in for the frozen CLIP text encoder (bag of hashed tokens)."""
    def __init__(self, clip_dim=32, vocab=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, clip_dim)
        self.vocab = vocab
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, texts):
        ids = [torch.tensor([sum(map(ord, w)) % self.vocab for w in t.split()]) for t in texts]
        return torch.stack([self.tok(i).mean(0) for i in ids])


class MDM(nn.Module):
    def __init__(self, njoints=6, nfeats=1, latent_dim=32, clip_dim=32, prompts=None):
        super().__init__()
        self.njoints, self.nfeats, self.latent_dim = njoints, nfeats, latent_dim
        self.cond_mode = 'text'
        self.prompts = prompts
        self.input_process = nn.Linear(njoints * nfeats, latent_dim)
        self.embed_timestep = nn.Embedding(1000, latent_dim)
        self.embed_text = nn.Linear(clip_dim, latent_dim)
        layer = nn.TransformerEncoderLayer(latent_dim, 4, 64, dropout=0.0)
        self.seqTransEncoder = nn.TransformerEncoder(layer, num_layers=2)
        self.output_process = nn.Linear(latent_dim, njoints * nfeats)
        self.clip_model = FrozenTextEncoder(clip_dim)

    def encode_text(self, raw_text):
        with torch.no_grad():
            return self.clip_model(raw_text)

    @cached_property
    def text_emb(self):
        # computed once at the beginning instead of at every denoising call
        enc_text = self.encode_text(self.prompts)
        return self.embed_text(enc_text)

    def forward(self, x, timesteps, y=None):
        bs, njoints, nfeats, nframes = x.shape
        emb = self.embed_timestep(timesteps).unsqueeze(0)  # [1, bs, d]
        if 'text' in self.cond_mode:
            emb = emb + self.text_emb.unsqueeze(0)
        x = x.permute(3, 0, 1, 2).reshape(nframes, bs, njoints * nfeats)
        x = self.input_process(x)
        xseq = torch.cat((emb, x), dim=0)
        output = self.seqTransEncoder(xseq)[1:]
        output = self.output_process(output)
        return output.reshape(nframes, bs, njoints, nfeats).permute(1, 2, 3, 0)


# Gaussian diffusion (predict x_start, as MDM does)
T = 1000
betas = torch.linspace(1e-4, 0.02, T)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)


def q_sample(x_start, t, noise):
    a = alphas_cumprod[t].view(-1, 1, 1, 1)
    return a.sqrt() * x_start + (1 - a).sqrt() * noise


prompts = ["a person walks forward", "a person jumps", "a person waves", "a person sits down"]
model = MDM(prompts=prompts)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
motions = torch.randn(4, 6, 1, 10)  # the motions paired with the prompts

for step in range(3):
    t = torch.randint(0, T, (motions.size(0),))
    noise = torch.randn_like(motions)
    x_t = q_sample(motions, t, noise)
    model_output = model(x_t, t, y={'text': prompts})
    loss = F.mse_loss(model_output, motions)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
