# source: https://github.com/google/inspiration_tree/issues/25 ("When I run the second cell ((2) Load the learned nodes) of the notebook 'inspiration_tree_playground.ipynb', I've got RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation."; the fix the thread gives wraps load_tokens of utils.py in torch.no_grad()). The notebook's first two code cells as in the repository (commit 8d7cd71); utils.py cut down to load_tokens; stand-ins: _stub_diffusers.py for StableDiffusionPipeline (a tiny CLIP tokenizer / text encoder with random weights), _stub_pil.py for PIL.Image, mpl_stub.py for matplotlib.pyplot, and a setup cell writing small random images and embeds.bin files for input_concepts/bear_wooden instead of the repository's learned tokens
# scenario: imported_module
# cause: leaf_inplace
# root: file utils.py line 40
# expert: load_tokens writes each learned token vector straight into the text encoder's embedding table, pipe.text_encoder.text_model.embeddings.token_embedding.weight[ref_indx] = embd_cur, an in-place write into a view of a parameter that requires grad, which autograd refuses. As the thread settles (LeonJoe13's and the reporter's fix), do the token loading under torch.no_grad() in utils.load_tokens.
# %%
# stand-in for the repository's input_concepts/bear_wooden: per node, a few small images and an embeds.bin
import os
import numpy as np
import torch

rng = np.random.RandomState(0)
torch.manual_seed(0)
for node in ["v0", "v1", "v2"]:
    os.makedirs(f"input_concepts/bear_wooden/{node}", exist_ok=True)
    for k in range(4):
        with open(f"input_concepts/bear_wooden/{node}/{k}.jpg", "wb") as f:
            np.save(f, rng.randint(0, 255, (64, 64, 3)).astype(np.uint8))
    if node != "v0":
        torch.save({node: torch.randn(16)}, f"input_concepts/bear_wooden/{node}/embeds.bin")
# %%
from IPython.display import Image as Image_colab
from IPython.display import display
from _stub_pil import Image  # stands in for PIL.Image
import os

# root_concept = input("Root concept name:")
root_concept = "bear_wooden"
abs_path = os.path.abspath(os.getcwd())
target_ = f"{abs_path}/input_concepts/{root_concept}/v0"
im = Image.open(f"{target_}/{os.listdir(target_)[0]}").resize((300,300))
display(im)
# %%
import mpl_stub as plt  # stands in for matplotlib.pyplot
import numpy as np 
import glob
import utils
import torch
from _stub_diffusers import StableDiffusionPipeline  # stands in for diffusers

MODEL_ID = "runwayml/stable-diffusion-v1-5"
device = "cuda" if torch.cuda.is_available() else "cpu"

# read tree
learned_tokens_dir = f"input_concepts/{root_concept}"
learned_nodes = sorted(os.listdir(learned_tokens_dir))
all_nodes = {}
print(f"Loading learned nodes from {learned_nodes}...")
for node in learned_nodes:
    image_paths = glob.glob(f"{learned_tokens_dir}/{node}/*.png") + glob.glob(f"{learned_tokens_dir}/{node}/*.jpg") + glob.glob(f"{learned_tokens_dir}/{node}/*.jpeg")
    if not image_paths:
        continue
    images = [Image.open(p) for p in image_paths]
    plot_stacked = []
    for j in range(int(len(images) / 4)):
        images_staked_h = np.hstack([np.asarray(img) for img in images[j * 4:j * 4 + 4]])
        plot_stacked.append(images_staked_h)

    if len(plot_stacked) == 1:
        im_stack = plot_stacked[0]
    else: 
        im_stack = np.vstack(plot_stacked)
    plt.imshow(im_stack)
    plt.axis("off")
    plt.title(node, size=24)
    plt.show()
    
    if os.path.exists(f"{learned_tokens_dir}/{node}/embeds.bin"):
        node_code = torch.load(f"{learned_tokens_dir}/{node}/embeds.bin")[node]
        all_nodes[f"<{node}>"] = node_code

        
pipe = StableDiffusionPipeline.from_pretrained(MODEL_ID, torch_dtype=torch.float16, safety_checker=None, requires_safety_checker=False).to(device)
utils.load_tokens(pipe, all_nodes, device)
print("Prompts loaded to pipe ...")
print(all_nodes.keys())
