# source: https://github.com/Lightning-AI/pytorch-lightning/issues/19910
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 2 line 6
# expert: the Jacobian in test_step is computed inside torch.enable_grad(), which works in validation_step (Lightning runs it under torch.no_grad() during fit) but not in test_step: trainer.test() runs the test loop under torch.inference_mode(), which enable_grad() cannot override, so y = f(x) gets no grad_fn and torch.autograd.grad fails. The reporter traced it to inference mode (is_inference_mode_enabled() is True only in test) and the issue was closed as working as intended; the maintainers' fix for gradients in test/validation steps (e.g. awaelchli in #17653) is to build the Trainer with inference_mode=False, so evaluation runs under torch.no_grad(), which enable_grad() can lift.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
import lightning_stub as L
torch.manual_seed(0)
# %%
class LitMNIST(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))

    def forward(self, x):
        return self.model(x)

    def jacobian_check(self):
        with torch.enable_grad():
            N = 5
            f = lambda x: x ** 2
            x = torch.randn(N, requires_grad=True)
            y = f(x)
            I_N = torch.eye(N)
            # Sequential approach
            jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True, allow_unused=True)[0]
                             for v in I_N.unbind()]
            jacobian = torch.stack(jacobian_rows)
        return jacobian

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log('train_loss', loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log('val_loss', F.cross_entropy(self(x), y))
        self.log('val_jacobian_trace', self.jacobian_check().trace())

    def test_step(self, batch, batch_idx):
        x, y = batch
        self.log('test_loss', F.cross_entropy(self(x), y))
        self.log('test_jacobian_trace', self.jacobian_check().trace())

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
# %%
# random 8x8 "digits" instead of MNIST
def make_loader(n):
    return DataLoader(TensorDataset(torch.rand(n, 1, 8, 8), torch.randint(0, 10, (n,))), batch_size=8)
mnist_train, mnist_val, mnist_test = make_loader(32), make_loader(16), make_loader(16)
model = LitMNIST()
trainer = L.Trainer(max_epochs=2)
# %%
trainer.fit(model, train_dataloaders=mnist_train, val_dataloaders=mnist_val)
print(model.logged)
# %%
trainer.test(ckpt_path='best', dataloaders=mnist_test)
