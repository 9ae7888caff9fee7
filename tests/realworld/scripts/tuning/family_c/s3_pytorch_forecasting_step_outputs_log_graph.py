# source: https://github.com/sktime/pytorch-forecasting/pull/1924
# style: tabular
# cause: graph_kept_alive
# line: 35
# expert: detach the tensors of the log dictionary (loss and predictions) before appending them to training_step_outputs, so the list kept for the epoch-end hook does not retain the computation graph of every batch
import torch
import torch.nn as nn

torch.manual_seed(0)


class BaseModel(nn.Module):
    """Minimal stand-in for pytorch_forecasting.models.BaseModel (Lightning-style hooks)."""

    def __init__(self, n_features=6, prediction_length=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features * 8, 32), nn.ReLU(), nn.Linear(32, prediction_length))
        self.loss = nn.SmoothL1Loss()
        self.training_step_outputs = []

    def forward(self, x):
        return {'prediction': self.net(x['encoder_cont'].flatten(1))}

    def step(self, x, y, batch_idx):
        out = self(x)
        prediction = out['prediction']
        loss = self.loss(prediction, y)
        log = {'loss': loss, 'n_samples': x['encoder_cont'].size(0)}
        return log, out

    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y, batch_idx)
        log['prediction'] = out['prediction']
        self.training_step_outputs.append(log)
        return log

    def on_train_epoch_end(self):
        mean_loss = torch.stack([o['loss'] for o in self.training_step_outputs]).mean()
        self.training_step_outputs.clear()
        return mean_loss.item()


model = BaseModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_dataloader = [({'encoder_cont': torch.randn(16, 8, 6)}, torch.randn(16, 3)) for _ in range(6)]
for epoch in range(2):
    for batch_idx, batch in enumerate(train_dataloader):
        log = model.training_step(batch, batch_idx)
        optimizer.zero_grad()
        log['loss'].backward()
        optimizer.step()
    print(f"epoch {epoch} train_loss {model.on_train_epoch_end():.4f}")
