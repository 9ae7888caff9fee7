# source: https://github.com/open-mmlab/mmsegmentation/issues/3577 (CLIPTextEncoder of mmseg/models/text_encoder/clip_text_encoder.py at 28b741f with self._freeze() and @torch.no_grad() removed as the reporter did, cut down to a 1-layer text transformer over a toy vocabulary tokenizer; a tiny SAN-like pixel head on random images instead of the CLIP image side)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 1 line 48
# expert: with the text encoder made trainable (no _freeze, no @torch.no_grad on encode_text), CLIPTextEncoder.forward still caches the class embeddings in self.cache on the first call and returns the cached tensors afterwards, so the second training iteration backpropagates into the first iteration's freed text-encoder graph; a trainable text encoder must not cache its output: build it with cache_feature=False so the class embeddings are re-encoded every iteration.
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

VOCAB = ['<sot>', '<eot>', 'a', 'photo', 'of', 'the', 'road', 'sidewalk', 'building', 'sky', 'car']
def tokenize(texts, context_length=8):
    """toy stand-in for mmseg.utils.tokenizer.tokenize: <sot> words <eot>, zero padded"""
    out = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, t in enumerate(texts):
        ids = [0] + [VOCAB.index(w) for w in t.split()] + [1]
        out[i, :len(ids)] = torch.tensor(ids)
    return out

templates = ['a photo of the {}', 'the {}']
# %%
class CLIPTextEncoder(nn.Module):
    """A text encoder with transformer architecture to encode the label text (mmseg, SAN)."""

    def __init__(self, vocabulary, templates, total_vocab_size=len(VOCAB), context_length=8,
                 embed_dims=16, num_heads=2, output_dims=16, cache_feature=True, cat_bg=True):
        super().__init__()
        self.templates = templates
        self.vocabulary = vocabulary
        self.token_embedding = nn.Embedding(total_vocab_size, embed_dims)
        self.positional_embedding = nn.Parameter(torch.randn(context_length, embed_dims) * 0.01)
        self.text_projection = nn.Parameter(torch.randn(embed_dims, output_dims) * embed_dims ** -0.5)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
        self.transformer = nn.TransformerEncoderLayer(embed_dims, num_heads, dim_feedforward=4 * embed_dims,
                                                      dropout=0.0, norm_first=True)
        self.ln_final = nn.LayerNorm(embed_dims)
        self.cache_feature = cache_feature
        if self.cache_feature:
            self.cache = {}
        # self._freeze()  -- removed: the text encoder should be trained too
        self.cat_bg = cat_bg
        if self.cat_bg:
            self.bg_embed = nn.Parameter(torch.randn(1, output_dims) * output_dims ** -0.5)

    def encode_text(self, text, normalize=False):  # @torch.no_grad() removed
        x = self.token_embedding(text)
        x = x + self.positional_embedding
        x = x.permute(1, 0, 2)  # NLD -> LND
        x = self.transformer(x)
        x = x.permute(1, 0, 2)  # LND -> NLD
        x = self.ln_final(x)
        x = x[torch.arange(x.shape[0]), (text == 1).int().argmax(dim=-1)] @ self.text_projection
        return F.normalize(x, dim=-1) if normalize else x

    def template_encode(self, vocabulary):
        text_embed_bucket = []
        for template in self.templates:
            text_inputs = tokenize([template.format(noun) for noun in vocabulary])
            text_embed = self.encode_text(text_inputs, normalize=True)
            text_embed_bucket.append(text_embed)
        text_embed = torch.stack(text_embed_bucket).mean(dim=0)
        text_embed = text_embed / text_embed.norm(dim=-1, keepdim=True)
        return text_embed

    def forward(self):
        class_names = self.vocabulary
        if self.cache_feature:
            new_classes = [word for word in class_names if word not in self.cache]
            if len(new_classes) > 0:
                class_embeds = self.template_encode(new_classes)
                self.cache.update(dict(zip(new_classes, class_embeds)))
            class_embeds = torch.stack([self.cache[word] for word in class_names])
        else:
            class_embeds = self.template_encode(class_names)
        if self.cat_bg:
            class_embeds = torch.cat([class_embeds, self.bg_embed])
            class_embeds = F.normalize(class_embeds, p=2, dim=-1)
        return self.logit_scale.exp() * class_embeds
# %%
class_names = ['road', 'sidewalk', 'building', 'sky', 'car']
text_encoder = CLIPTextEncoder(vocabulary=class_names, templates=templates, cache_feature=False)
pixel_head = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.GELU(), nn.Conv2d(16, 16, 1))
optimizer = torch.optim.AdamW(list(text_encoder.parameters()) + list(pixel_head.parameters()), lr=1e-3)

images = torch.randn(2, 3, 8, 8)
labels = torch.randint(0, len(class_names) + 1, (2, 8, 8))
# %%
for it in range(3):
    class_embeds = text_encoder()                     # [num_classes + bg, C]
    pix = F.normalize(pixel_head(images), dim=1)      # [B, C, H, W]
    seg_logits = torch.einsum('bchw,kc->bkhw', pix, class_embeds)
    loss = F.cross_entropy(seg_logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
