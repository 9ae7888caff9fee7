# source: https://github.com/tejank10/null-text-inversion/issues/1
import torch
import torch.nn as nn
import torch.nn.functional as nnf

torch.manual_seed(0)
NUM_DDIM_STEPS = 4
GUIDANCE_SCALE = 7.5


class PNDMScheduler:
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_train_timesteps = num_train_timesteps
        self.ets = []

    def set_timesteps(self, n):
        self.num_inference_steps = n
        self.timesteps = torch.arange(0, self.num_train_timesteps, self.num_train_timesteps // n).flip(0) + 1

    def _get_prev_sample(self, sample, timestep, prev_timestep, model_output):
        alpha_prod_t = self.alphas_cumprod[timestep]
        alpha_prod_t_prev = self.alphas_cumprod[prev_timestep] if prev_timestep >= 0 else torch.tensor(1.0)
        beta_prod_t, beta_prod_t_prev = 1 - alpha_prod_t, 1 - alpha_prod_t_prev
        sample_coeff = (alpha_prod_t_prev / alpha_prod_t) ** 0.5
        denom = alpha_prod_t * beta_prod_t_prev ** 0.5 + (alpha_prod_t * beta_prod_t * alpha_prod_t_prev) ** 0.5
        return sample_coeff * sample - (alpha_prod_t_prev - alpha_prod_t) * model_output / denom

    def step(self, model_output, timestep, sample):
        # linear multistep (PLMS): keeps the previous model outputs
        prev_timestep = timestep - self.num_train_timesteps // self.num_inference_steps
        self.ets.append(model_output)
        if len(self.ets) == 1:
            model_output = self.ets[-1]
        elif len(self.ets) == 2:
            model_output = (3 * self.ets[-1] - self.ets[-2]) / 2
        elif len(self.ets) == 3:
            model_output = (23 * self.ets[-1] - 16 * self.ets[-2] + 5 * self.ets[-3]) / 12
        else:
            model_output = (1 / 24) * (55 * self.ets[-1] - 59 * self.ets[-2] + 37 * self.ets[-3] - 9 * self.ets[-4])
        return self._get_prev_sample(sample, timestep, prev_timestep, model_output)


class TinyUNet(nn.Module):
    def __init__(self, ch=4, emb=8):
        super().__init__()
        self.conv_in = nn.Conv2d(ch, 8, 3, padding=1)
        self.emb_proj = nn.Linear(emb, 8)
        self.conv_out = nn.Conv2d(8, ch, 3, padding=1)

    def forward(self, latents, t, encoder_hidden_states):
        h = self.conv_in(latents) + self.emb_proj(encoder_hidden_states.mean(1))[:, :, None, None]
        return self.conv_out(nnf.silu(h))


class NullInversion:
    def __init__(self, unet, scheduler):
        self.unet, self.scheduler = unet, scheduler
        self.scheduler.set_timesteps(NUM_DDIM_STEPS)

    def get_noise_pred_single(self, latents, t, context):
        return self.unet(latents, t, encoder_hidden_states=context)

    def prev_step(self, model_output, timestep, sample):
        # stateless DDIM update
        prev_timestep = timestep - self.scheduler.num_train_timesteps // self.scheduler.num_inference_steps
        alpha_prod_t = self.scheduler.alphas_cumprod[timestep]
        alpha_prod_t_prev = self.scheduler.alphas_cumprod[prev_timestep] if prev_timestep >= 0 else torch.tensor(1.0)
        beta_prod_t = 1 - alpha_prod_t
        pred_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        pred_sample_direction = (1 - alpha_prod_t_prev) ** 0.5 * model_output
        return alpha_prod_t_prev ** 0.5 * pred_original_sample + pred_sample_direction

    def null_optimization(self, latents, context, num_inner_steps, epsilon):
        uncond_embeddings, cond_embeddings = context.chunk(2)
        uncond_embeddings_list = []
        latent_cur = latents[-1]
        for i in range(NUM_DDIM_STEPS):
            uncond_embeddings = uncond_embeddings.clone().detach()
            uncond_embeddings.requires_grad = True
            optimizer = torch.optim.Adam([uncond_embeddings], lr=1e-2 * (1. - i / 100.))
            latent_prev = latents[len(latents) - i - 2]
            t = self.scheduler.timesteps[i]
            with torch.no_grad():
                noise_pred_cond = self.get_noise_pred_single(latent_cur, t, cond_embeddings)
            for j in range(num_inner_steps):
                noise_pred_uncond = self.get_noise_pred_single(latent_cur, t, uncond_embeddings)
                noise_pred = noise_pred_uncond + GUIDANCE_SCALE * (noise_pred_cond - noise_pred_uncond)
                latents_prev_rec = self.prev_step(noise_pred, t, latent_cur)
                loss = nnf.mse_loss(latents_prev_rec, latent_prev)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if loss.item() < epsilon + i * 2e-5:
                    break
            uncond_embeddings_list.append(uncond_embeddings[:1].detach())
            with torch.no_grad():
                context = torch.cat([uncond_embeddings, cond_embeddings])
                latent_cur = self.prev_step(noise_pred_cond, t, latent_cur).detach()
        return uncond_embeddings_list


unet = TinyUNet()
for p in unet.parameters():
    p.requires_grad_(False)
null_inversion = NullInversion(unet, PNDMScheduler())
ddim_latents = [torch.randn(1, 4, 8, 8) for _ in range(NUM_DDIM_STEPS + 1)]
text_encoder = nn.Linear(6, 8)
with torch.no_grad():
    context = text_encoder(torch.randn(2, 3, 6))
uncond_list = null_inversion.null_optimization(ddim_latents, context, num_inner_steps=3, epsilon=1e-5)
print(len(uncond_list))
