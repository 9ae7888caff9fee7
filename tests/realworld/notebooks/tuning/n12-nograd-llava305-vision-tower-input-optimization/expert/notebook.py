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
