# source: https://github.com/TRI-ML/packnet-sfm/issues/47
# style: vision
# cause: graph_kept_alive
# line: 68
# expert: detach output['loss'] before appending the step output to the epoch's outputs list (output['loss'] = output['loss'].detach(), merged in PR #51) so the list does not keep every batch's graph until training_epoch_end
import torch
import torch.nn as nn


torch.manual_seed(0)


class AvgMeter:
    def __init__(self, n_max=50):
        self.n_max, self.values = n_max, []

    def __call__(self, value):
        self.values = (self.values + [value])[-self.n_max:]
        return sum(self.values) / len(self.values)


class SelfSupModel(nn.Module):
    """Tiny depth net + photometric reconstruction loss between two frames."""

    def __init__(self):
        super().__init__()
        self.depth_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())
        self.current_epoch = 0

    def configure_optimizers(self):
        self.optimizer = torch.optim.Adam(self.parameters(), lr=2e-4)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=30, gamma=0.5)

    def training_step(self, batch, *args):
        inv_depth = self.depth_net(batch['rgb'])
        warped = batch['rgb_context'] * inv_depth
        photometric_loss = (warped - batch['rgb']).abs().mean()
        smoothness_loss = (inv_depth[..., 1:] - inv_depth[..., :-1]).abs().mean()
        return {'loss': photometric_loss + 1e-3 * smoothness_loss,
                'metrics': {'photometric_loss': photometric_loss.detach(), 'smoothness_loss': smoothness_loss.detach()}}

    def training_epoch_end(self, output_batch):
        avg_train_loss = torch.stack([output['loss'] for output in output_batch]).mean()
        return {'avg_train-loss': avg_train_loss.item()}


class HorovodTrainer:
    def __init__(self, max_epochs=2):
        self.avg_loss = AvgMeter(50)
        self.max_epochs = max_epochs

    def fit(self, module, train_dataloader):
        module.configure_optimizers()
        optimizer, scheduler = module.optimizer, module.scheduler
        for epoch in range(module.current_epoch, self.max_epochs):
            print(self.train(train_dataloader, module, optimizer))
            module.current_epoch += 1
            scheduler.step()

    def train(self, dataloader, module, optimizer):
        module.train()
        outputs = []
        for i, batch in enumerate(dataloader):
            optimizer.zero_grad()
            output = module.training_step(batch, i)
            output['loss'].backward()
            optimizer.step()
            output['loss'] = output['loss'].detach()
            outputs.append(output)
            print('Epoch {} | Avg.Loss {:.4f}'.format(module.current_epoch, self.avg_loss(output['loss'].item())))
        return module.training_epoch_end(outputs)


train_dataloader = [{'rgb': torch.rand(2, 3, 16, 16), 'rgb_context': torch.rand(2, 3, 16, 16)} for _ in range(5)]
HorovodTrainer().fit(SelfSupModel(), train_dataloader)
