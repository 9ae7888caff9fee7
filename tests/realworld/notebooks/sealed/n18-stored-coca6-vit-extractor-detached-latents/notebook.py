# source: variant of https://github.com/lucidrains/CoCa-pytorch/issues/6
# scenario: stored_activations
# cause: no_grad_fn
# root: file vit_pytorch.py line 64
# expert: vit-pytorch's Extractor keeps the transformer output through a forward hook as self.latents = t.clone().detach(), so the image embeddings it returns are cut from the ViT's parameters and an image-side loss built only on them cannot backpropagate into the image encoder (here: element 0 ... does not have a grad_fn). lucidrains fixed it in vit-pytorch 0.35.8 by adding a detach flag to Extractor, and CoCa builds it with Extractor(vit, return_embeddings_only = True, detach = False).
# %%
import torch
import torch.nn.functional as F
from vit_pytorch import ViT, Extractor
torch.manual_seed(0)
# %%
vit = ViT(
    image_size = 16,
    patch_size = 4,
    num_classes = 10,
    dim = 16,
    depth = 1,
    heads = 2,
    mlp_dim = 32
)

vit = Extractor(vit, return_embeddings_only = True)
# %%
# frozen class-name embeddings from a text tower (random stand-ins) and a few random images
num_classes = 5
text_embeds = F.normalize(torch.randn(num_classes, 16), dim = -1)
images = torch.randn(8, 3, 16, 16)
labels = torch.randint(0, num_classes, (8,))
# %%
def image_embed(images):
    image_tokens = vit(images)          # (batch, 1 + num_patches, dim) from the hooked transformer
    return F.normalize(image_tokens.mean(dim = 1), dim = -1)
# %%
optimizer = torch.optim.Adam(vit.parameters(), lr = 1e-3)
for step in range(3):
    logits = image_embed(images) @ text_embeds.t() / 0.07
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
