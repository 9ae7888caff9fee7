# source: https://github.com/pnnl/neuromancer/pull/292
# style: physics
# cause: graph_kept_alive
# line: 45
# expert: detach the metric tensors before storing them (losses.append(output[self.train_metric].detach())) so the stored history does not keep every batch's autograd graph
import torch
import torch.nn as nn

torch.manual_seed(0)


class Problem(nn.Module):
    """Stand-in for neuromancer Problem: a node map plus a penalty objective."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.GELU(), nn.Linear(32, 1))

    def forward(self, data):
        y = self.net(data['X'])
        ref_loss = ((y - data['Y']) ** 2).mean()
        con = torch.relu(y - 1.0).mean()
        loss = ref_loss + 10.0 * con
        return {'train_loss': loss, 'train_ref_loss': ref_loss, 'train_con': con}


class Trainer:
    def __init__(self, problem, train_data, optimizer, epochs=3, train_metric='train_loss'):
        self.model = problem
        self.train_data = train_data
        self.optimizer = optimizer
        self.epochs = epochs
        self.train_metric = train_metric
        self.loss_history = {'train': []}

    def train(self):
        for i in range(self.epochs):
            losses = []
            for t_batch in self.train_data:
                t_batch['epoch'] = i
                output = self.model(t_batch)
                self.optimizer.zero_grad()
                output[self.train_metric].backward()
                self.optimizer.step()
                losses.append(output[self.train_metric].detach())
            output['train_loss'] = torch.mean(torch.stack(losses))
            self.loss_history['train'].append(output['train_loss'])
            print(f"epoch: {i}  train_loss: {output['train_loss'].item():.4f}")


train_data = [{'X': torch.randn(16, 3), 'Y': torch.randn(16, 1)} for _ in range(6)]
problem = Problem()
trainer = Trainer(problem, train_data, torch.optim.AdamW(problem.parameters(), lr=1e-3))
trainer.train()
