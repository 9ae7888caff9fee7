# source: variant of https://github.com/haotian-liu/LLaVA/issues/305 (CLIPVisionTower kept as in llava/model/multimodal_encoder/clip_encoder.py over a tiny stand-in CLIPVisionModel; the issue does not show the input-optimization loop, so a plain perturbation search on the image is written for it)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: file clip_encoder.py line 79
# expert: CLIPVisionTower.forward in clip_encoder.py is decorated with @torch.no_grad(), so the image features the input-optimization loop gets back are cut from the perturbed image; with the rest of the model frozen the loss has no grad_fn and loss.backward() fails. As agreed in the issue, drop the decorator: the tower's weights are already frozen by vision_tower.requires_grad_(False), and gradients can then reach the input image.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
from clip_encoder import CLIPVisionTower

torch.manual_seed(0)
args = SimpleNamespace(mm_vision_select_layer=-2, mm_vision_select_feature='patch')
# %%
class TinyLlava(nn.Module):
    """vision tower -> mm_projector -> a small language-model head over the image tokens and the prompt"""
    def __init__(self, vocab_size=20, hidden=48):
        super().__init__()
        self.vision_tower = CLIPVisionTower('openai/clip-vit-large-patch14', args)
        self.mm_projector = nn.Sequential(nn.Linear(self.vision_tower.hidden_size, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.lm = nn.TransformerEncoderLayer(hidden, 4, 96, dropout=0.0, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def encode_images(self, images):
        image_features = self.vision_tower(images)
        return self.mm_projector(image_features)

    def forward(self, input_ids, images):
        x = torch.cat([self.encode_images(images), self.embed_tokens(input_ids)], dim=1)
        return self.lm_head(self.lm(x))


model = TinyLlava()
model.eval()
model.requires_grad_(False)
image = torch.rand(1, 3, 16, 16)
input_ids = torch.tensor([[3, 7, 1, 5]])
target_token = torch.tensor([11])
with torch.no_grad():
    print("answer before:", model(input_ids, image)[:, -1].argmax(-1).item())
# %%
# input optimization: find a small perturbation of the image that makes the model answer target_token
delta = torch.zeros_like(image, requires_grad=True)
optimizer = torch.optim.Adam([delta], lr=0.01)
eps = 8 / 255

for step in range(20):
    logits = model(input_ids, (image + delta).clamp(0, 1))
    loss = F.cross_entropy(logits[:, -1], target_token)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        delta.clamp_(-eps, eps)
print("loss", loss.item(), "answer after:", logits[:, -1].argmax(-1).item())
