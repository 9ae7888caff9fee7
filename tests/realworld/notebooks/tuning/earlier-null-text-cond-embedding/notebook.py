# source: https://github.com/tejank10/null-text-inversion/issues/1
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 1 line 5
# expert: the conditional text embedding is produced by the text encoder before the optimisation starts and is not detached, so the second inner step backpropagates into the encoder graph that the first step freed; detach text_embedding (or encode the prompt under no_grad) before training
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
GUIDANCE_SCALE = 7.5

class TextEncoder(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        return self.proj(self.tok(ids))

class TinyUNet(nn.Module):
    def __init__(self, dim=16, latent=8):
        super().__init__()
        self.ctx = nn.Linear(dim, latent)
        self.net = nn.Sequential(nn.Linear(latent + 1, 32), nn.SiLU(), nn.Linear(32, latent))

    def forward(self, latent, t, context):
        c = self.ctx(context.mean(1))
        h = torch.cat([latent + c, torch.full_like(latent[:, :1], t / 1000)], -1)
        return self.net(h)

alphas = torch.linspace(0.99, 0.5, 1000)

def prev_step(noise_pred, t, latent, step=250):
    a_t, a_prev = alphas[t], alphas[max(t - step, 0)]
    x0 = (latent - (1 - a_t).sqrt() * noise_pred) / a_t.sqrt()
    return a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * noise_pred
# %%
text_encoder = TextEncoder()
unet = TinyUNet()
prompt_ids = torch.tensor([[3, 14, 15, 9, 2]])
null_ids = torch.zeros(1, 5, dtype=torch.long)
text_embedding = text_encoder(prompt_ids)
uncond_embeddings = text_encoder(null_ids).detach()
# %%
timesteps = [999, 749, 499, 249]
with torch.no_grad():   # DDIM inversion of the image latent
    latent = torch.randn(1, 8)
    latents = [latent]
    for t in reversed(timesteps):
        latent = latent + 0.1 * unet(latent, t, text_embedding)
        latents.append(latent)
# %%
def null_text_inversion(latents, num_inner_steps=3):
    uncond_embeddings_list = []
    latent_cur = latents[-1]
    uncond = uncond_embeddings
    for i, t in enumerate(timesteps):
        uncond = uncond.clone().detach().requires_grad_(True)
        optimizer = torch.optim.Adam([uncond], lr=1e-2 * (1. - i / 100.))
        latent_prev = latents[len(latents) - i - 2]
        for j in range(num_inner_steps):
            noise_pred_cond = unet(latent_cur, t, text_embedding)
            noise_pred_uncond = unet(latent_cur, t, uncond)
            noise_pred = noise_pred_uncond + GUIDANCE_SCALE * (noise_pred_cond - noise_pred_uncond)
            latents_prev_rec = prev_step(noise_pred, t, latent_cur)
            loss = F.mse_loss(latents_prev_rec, latent_prev)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        uncond_embeddings_list.append(uncond.detach())
        with torch.no_grad():
            latent_cur = prev_step(noise_pred, t, latent_cur)
    return uncond_embeddings_list
# %%
uncond_embeddings_list = null_text_inversion(latents, num_inner_steps=3)
len(uncond_embeddings_list)
