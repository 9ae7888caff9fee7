# source: https://github.com/AaronComo/LipFD/issues/18
# scenario: imported_module
# cause: no_grad_fn
# root: file trainer.py line 21
# expert: with fix_encoder the Trainer in trainer.py sets requires_grad = False in BOTH branches (a typo in the else branch), so every parameter is frozen and the loss has no grad_fn; the else branch must read p.requires_grad = True (the fix given in the issue)
# %%
import argparse
import torch
from trainer import Trainer
torch.manual_seed(0)
opt = argparse.Namespace(checkpoints_dir="./checkpoints", name="experiment_name", arch="CLIP:ViT-L/14",
                         fix_encoder=True, optim="adam", lr=2e-9 * 1e6, beta1=0.9, weight_decay=0.0)
# %%
model = Trainer(opt)
x = torch.randn(4, 12)
crops = [[torch.randn(4, 6) for _ in range(2)] for _ in range(3)]
label = torch.tensor([0, 1, 1, 0])
# %%
for epoch in range(2):
    model.total_steps += 1
    model.set_input((x, crops, label))
    model.forward()
    loss = model.get_loss()
    model.optimize_parameters()
    print(epoch, loss)
