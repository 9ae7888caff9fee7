# source: https://github.com/nianticlabs/monodepth2/issues/24
# style: vision
# cause: no_grad_fn
# line: 60
# expert: torch.no_grad() belongs to validation only; compute the loss you backpropagate in the training step outside the no_grad block (do not train on the batch processed under no_grad)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ELU())
        self.dec = nn.Sequential(nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, x):
        return {("disp", 0): self.dec(self.enc(x))}


class Trainer:
    def __init__(self):
        self.models = {"depth": DepthNet()}
        self.model_optimizer = torch.optim.Adam(self.models["depth"].parameters(), 1e-4)
        self.step = 0

    def set_train(self):
        for m in self.models.values():
            m.train()

    def set_eval(self):
        for m in self.models.values():
            m.eval()

    def compute_losses(self, inputs, outputs):
        pred = outputs[("disp", 0)]
        target = inputs[("color", 0, 0)].mean(1, keepdim=True)
        return {"loss": F.l1_loss(pred, target)}

    def process_batch(self, inputs):
        outputs = self.models["depth"](inputs[("color_aug", 0, 0)])
        losses = self.compute_losses(inputs, outputs)
        return outputs, losses

    def run_epoch(self, train_loader):
        self.set_train()
        for batch_idx, inputs in enumerate(train_loader):
            outputs, losses = self.process_batch(inputs)
            self.model_optimizer.zero_grad()
            losses["loss"].backward()
            self.model_optimizer.step()
            self.val(inputs)
            self.step += 1

    def val(self, inputs):
        """Validate the model on a single minibatch"""
        self.set_eval()
        with torch.no_grad():
            outputs, losses = self.process_batch(inputs)
            self.model_optimizer.zero_grad()
            losses["loss"].backward()
            self.model_optimizer.step()
            print("val loss", losses["loss"].item())
        self.set_train()


def batch():
    img = torch.rand(2, 3, 16, 16)
    return {("color", 0, 0): img, ("color_aug", 0, 0): img}


Trainer().run_epoch([batch() for _ in range(2)])
