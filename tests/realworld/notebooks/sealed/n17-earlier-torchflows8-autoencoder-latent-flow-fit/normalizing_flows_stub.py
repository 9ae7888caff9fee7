"""Stand-in for torchflows (package normalizing_flows, mid 2024): BaseFlow.fit as in
normalizing_flows/flows.py (training part: data loader over x_train, AdamW, one backward per batch),
Flow, and a small affine-coupling bijection instead of the library's RealNVP."""
import torch
import torch.nn as nn


def create_data_loader(x, batch_size, shuffle, generator=None):
    weights = torch.ones(len(x))
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, weights), batch_size=batch_size,
                                       shuffle=shuffle, generator=generator)


class RealNVP(nn.Module):
    def __init__(self, event_shape, n_layers=2, hidden=16):
        super().__init__()
        self.event_shape = event_shape
        d = event_shape[0]
        self.d1 = d // 2
        self.nets = nn.ModuleList([nn.Sequential(nn.Linear(self.d1, hidden), nn.Tanh(), nn.Linear(hidden, 2 * (d - self.d1)))
                                   for _ in range(n_layers)])

    def forward(self, x, context=None):
        log_det = torch.zeros(x.shape[0])
        for net in self.nets:
            x1, x2 = x[:, :self.d1], x[:, self.d1:]
            s, t = net(x1).chunk(2, dim=-1)
            s = torch.tanh(s)
            x2 = x2 * torch.exp(s) + t
            log_det = log_det + s.sum(-1)
            x = torch.cat([x2, x1], dim=-1)
        return x, log_det


class BaseFlow(nn.Module):
    def __init__(self, event_shape):
        super().__init__()
        self.event_shape = event_shape
        self.event_size = int(torch.prod(torch.as_tensor(event_shape)))
        self.base = torch.distributions.MultivariateNormal(torch.zeros(self.event_size), torch.eye(self.event_size))

    def fit(self, x_train, n_epochs=500, lr=0.05, batch_size=1024, shuffle=True, show_progress=False):
        self.train()
        train_loader = create_data_loader(x_train, batch_size, shuffle, generator=torch.Generator().manual_seed(0))

        def compute_batch_loss(batch_, reduction=torch.mean):
            batch_x, batch_weights = batch_[:2]
            batch_log_prob = self.log_prob(batch_x)
            batch_loss = -reduction(batch_log_prob * batch_weights) / self.event_size
            return batch_loss

        optimizer = torch.optim.AdamW(self.parameters(), lr=lr)
        for epoch in range(n_epochs):
            for train_batch in train_loader:
                optimizer.zero_grad()
                train_loss = compute_batch_loss(train_batch, reduction=torch.mean)
                train_loss += self.regularization()
                train_loss.backward()
                optimizer.step()
        self.eval()

    def regularization(self):
        return 0.0


class Flow(BaseFlow):
    def __init__(self, bijection):
        super().__init__(event_shape=bijection.event_shape)
        self.register_module('bijection', bijection)

    def log_prob(self, x, context=None):
        z, log_det = self.bijection.forward(x, context=context)
        return self.base.log_prob(z) + log_det
