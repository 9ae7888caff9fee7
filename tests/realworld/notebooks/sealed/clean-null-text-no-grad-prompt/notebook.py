# source: https://github.com/google/prompt-to-prompt/blob/main/null_text_w_ptp.ipynb
# scenario: clean
# expert: none needed: the prompt embeddings are computed in a no_grad setup step and the conditional noise is predicted under no_grad, so the inner optimisation only backpropagates through the fresh unconditional branch
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

@torch.no_grad()
def init_prompt(prompt_ids):
    uncond = text_encoder(torch.zeros_like(prompt_ids))
    cond = text_encoder(prompt_ids)
    return torch.cat([uncond, cond])

context = init_prompt(torch.tensor([[3, 14, 15, 9, 2]]))
# %%
timesteps = [999, 749, 499, 249]
with torch.no_grad():   # DDIM inversion
    uncond_embeddings, cond_embeddings = context.chunk(2)
    latent = torch.randn(1, 8)
    latents = [latent]
    for t in reversed(timesteps):
        latent = latent + 0.1 * unet(latent, t, cond_embeddings)
        latents.append(latent)
# %%
def null_optimization(latents, num_inner_steps=3):
    uncond_embeddings, cond_embeddings = context.chunk(2)
    uncond_embeddings_list = []
    latent_cur = latents[-1]
    for i, t in enumerate(timesteps):
        uncond_embeddings = uncond_embeddings.clone().detach()
        uncond_embeddings.requires_grad = True
        optimizer = torch.optim.Adam([uncond_embeddings], lr=1e-2 * (1. - i / 100.))
        latent_prev = latents[len(latents) - i - 2]
        with torch.no_grad():
            noise_pred_cond = unet(latent_cur, t, cond_embeddings)
        for j in range(num_inner_steps):
            noise_pred_uncond = unet(latent_cur, t, uncond_embeddings)
            noise_pred = noise_pred_uncond + GUIDANCE_SCALE * (noise_pred_cond - noise_pred_uncond)
            latents_prev_rec = prev_step(noise_pred, t, latent_cur)
            loss = F.mse_loss(latents_prev_rec, latent_prev)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        uncond_embeddings_list.append(uncond_embeddings[:1].detach())
        with torch.no_grad():
            latent_cur = prev_step(noise_pred, t, latent_cur)
    return uncond_embeddings_list
# %%
uncond_embeddings_list = null_optimization(latents, num_inner_steps=3)
len(uncond_embeddings_list)
