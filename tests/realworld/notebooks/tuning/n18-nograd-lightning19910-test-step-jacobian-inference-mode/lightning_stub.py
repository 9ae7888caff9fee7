"""Minimal stand-in for lightning.pytorch's LightningModule/Trainer loops: fit() trains and runs
validation under torch.no_grad(); test() runs test_step under Trainer._evaluation_context, which is
torch.inference_mode() unless the Trainer was built with inference_mode=False (then torch.no_grad())."""
import torch
from torch import nn


class LightningModule(nn.Module):
    def log(self, name, value, **kwargs):
        self.logged = getattr(self, 'logged', {})
        self.logged[name] = value.item() if torch.is_tensor(value) else value


class Trainer:
    def __init__(self, max_epochs=1, inference_mode=True, **kwargs):
        self.max_epochs = max_epochs
        self.inference_mode = inference_mode
        self.lightning_module = None

    def _evaluation_context(self):
        return torch.inference_mode() if self.inference_mode else torch.no_grad()

    def fit(self, model, train_dataloaders, val_dataloaders=None):
        self.lightning_module = model
        optimizer = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            model.train()
            for batch_idx, batch in enumerate(train_dataloaders):
                loss = model.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            if val_dataloaders is not None:
                model.eval()
                with torch.no_grad():      # validation inside fit never uses inference mode
                    for batch_idx, batch in enumerate(val_dataloaders):
                        model.validation_step(batch, batch_idx)

    def test(self, model=None, dataloaders=None, ckpt_path=None):
        model = model if model is not None else self.lightning_module
        model.eval()
        with self._evaluation_context():
            for batch_idx, batch in enumerate(dataloaders):
                model.test_step(batch, batch_idx)
        return [getattr(model, 'logged', {})]
