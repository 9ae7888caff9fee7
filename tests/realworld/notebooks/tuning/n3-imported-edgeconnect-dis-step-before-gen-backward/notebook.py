# source: https://github.com/knazeri/edge-connect/issues/152
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file models.py line 101
# expert: EdgeModel.backward in models.py steps the discriminator optimizer (an in-place update of its weights) before gen_loss.backward(), but gen_loss went through the discriminator and needs those weights as they were; run the generator's backward and step first and the discriminator's after (the swap given in the thread), or step both optimizers after both backward passes
# %%
import argparse
import torch
from models import EdgeModel
torch.manual_seed(10)
config = argparse.Namespace(LR=0.0001, D2G_LR=0.1, BETA1=0.0, BETA2=0.9, FM_LOSS_WEIGHT=10)
# %%
edge_model = EdgeModel(config)
images = torch.rand(2, 3, 8, 8)
edges = (torch.rand(2, 1, 8, 8) > 0.8).float()
masks = (torch.rand(2, 1, 8, 8) > 0.5).float()
# %%
# train (MODEL == 1: edge model)
edge_model.train()
for it in range(2):
    outputs, gen_loss, dis_loss, logs = edge_model.process(images, edges, masks)
    edge_model.backward(gen_loss, dis_loss)
    print(it, logs)
