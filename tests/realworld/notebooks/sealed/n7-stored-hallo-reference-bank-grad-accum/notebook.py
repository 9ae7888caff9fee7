# source: variant of https://github.com/fudan-generative-vision/hallo/issues/211
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 4 line 20
# expert: the reference UNet's hacked transformer blocks append their hidden states to module.bank (write mode) and the denoising UNet attends to a copy of that bank (read mode); scripts/train_stage1.py only clears the banks under `if accelerator.sync_gradients:`, so with gradient_accumulation_steps > 1 the second micro-batch still reads the first micro-batch's stored features, whose graph was freed by the first backward; as the reporter found after testing, the banks must be cleared before each iteration begins, not only when gradients sync
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
def torch_dfs(model: torch.nn.Module):
    result = [model]
    for child in model.children():
        result += torch_dfs(child)
    return result


class BasicTransformerBlock(nn.Module):
    """stand-in for the diffusers transformer block whose forward hallo replaces"""
    def __init__(self, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn1 = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.ff = nn.Linear(dim, dim)

    def forward(self, hidden_states):
        norm_hidden_states = self.norm1(hidden_states)
        hidden_states = self.attn1(norm_hidden_states, norm_hidden_states, norm_hidden_states)[0] + hidden_states
        return self.ff(hidden_states) + hidden_states


class ReferenceAttentionControl:
    def __init__(self, unet, mode="write", fusion_blocks="full"):
        self.unet = unet
        self.reference_attn = True
        self.fusion_blocks = fusion_blocks
        self.register_reference_hooks(mode)

    def register_reference_hooks(self, mode):
        MODE = mode

        def hacked_basic_transformer_inner_forward(self, hidden_states):
            norm_hidden_states = self.norm1(hidden_states)
            if MODE == "write":
                self.bank.append(norm_hidden_states.clone())
                attn_output = self.attn1(norm_hidden_states, norm_hidden_states, norm_hidden_states)[0]
                hidden_states = attn_output + hidden_states
            if MODE == "read":
                bank_fea = [d for d in self.bank]
                modify_norm_hidden_states = torch.cat([norm_hidden_states] + bank_fea, dim=1)
                hidden_states = self.attn1(norm_hidden_states, modify_norm_hidden_states,
                                           modify_norm_hidden_states)[0] + hidden_states
                # self.bank.clear()
            return self.ff(hidden_states) + hidden_states

        for module in torch_dfs(self.unet):
            if isinstance(module, BasicTransformerBlock):
                module.forward = hacked_basic_transformer_inner_forward.__get__(module, BasicTransformerBlock)
                module.bank = []

    def update(self, writer, dtype=torch.float32):
        reader_attn_modules = [m for m in torch_dfs(self.unet) if isinstance(m, BasicTransformerBlock)]
        writer_attn_modules = [m for m in torch_dfs(writer.unet) if isinstance(m, BasicTransformerBlock)]
        for r, w in zip(reader_attn_modules, writer_attn_modules):
            r.bank = [v.clone().to(dtype) for v in w.bank]

    def clear(self):
        reader_attn_modules = [m for m in torch_dfs(self.unet) if isinstance(m, BasicTransformerBlock)]
        for r in reader_attn_modules:
            r.bank.clear()
# %%
class TinyUNet(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj_in = nn.Linear(4, dim)
        self.block = BasicTransformerBlock(dim)
        self.proj_out = nn.Linear(dim, 4)

    def forward(self, latents, timesteps):
        h = self.proj_in(latents) + timesteps.float().view(-1, 1, 1) / 1000
        return self.proj_out(self.block(h))


class Net(nn.Module):
    def __init__(self, reference_unet, denoising_unet, reference_control_writer, reference_control_reader):
        super().__init__()
        self.reference_unet = reference_unet
        self.denoising_unet = denoising_unet
        self.reference_control_writer = reference_control_writer
        self.reference_control_reader = reference_control_reader

    def forward(self, noisy_latents, timesteps, ref_image_latents, uncond_fwd=False):
        if not uncond_fwd:
            ref_timesteps = torch.zeros_like(timesteps)
            self.reference_unet(ref_image_latents, ref_timesteps)
            self.reference_control_reader.update(self.reference_control_writer)
        model_pred = self.denoising_unet(noisy_latents, timesteps)
        return model_pred
# %%
reference_unet = TinyUNet()
denoising_unet = TinyUNet()
reference_control_writer = ReferenceAttentionControl(reference_unet, mode="write", fusion_blocks="full")
reference_control_reader = ReferenceAttentionControl(denoising_unet, mode="read", fusion_blocks="full")
net = Net(reference_unet, denoising_unet, reference_control_writer, reference_control_reader)
optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)

gradient_accumulation_steps = 2   # cfg.solver.gradient_accumulation_steps
# stand-in for the VAE latents of the target frame and the reference image
train_dataloader = [{"latents": torch.randn(2, 6, 4), "ref_image_latents": torch.randn(2, 6, 4)} for _ in range(4)]
# %%
net.train()
global_step = 0
for step, batch in enumerate(train_dataloader):
    # what accelerator.accumulate(net) decides for this micro-batch
    sync_gradients = (step + 1) % gradient_accumulation_steps == 0
    latents = batch["latents"]
    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, 1000, (latents.shape[0],)).long()
    noisy_latents = latents + noise * (timesteps.float().view(-1, 1, 1) / 1000)

    model_pred = net(noisy_latents, timesteps, batch["ref_image_latents"], uncond_fwd=False)
    loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")

    # Backpropagate
    loss.backward()
    if sync_gradients:
        optimizer.step()
        optimizer.zero_grad()

    if sync_gradients:
        reference_control_reader.clear()
        reference_control_writer.clear()
        global_step += 1
        print("step", global_step, "loss", loss.item())
