# source: https://github.com/growingnet/gromo/issues/135
import torch
import torch.nn as nn

torch.manual_seed(0)


class TensorStatistic:
    def __init__(self, shape, update_function):
        self._tensor = torch.zeros(shape)
        self.update_function = update_function
        self.samples = 0
        self.updated = True

    def update(self):
        if not self.updated:
            update, n = self.update_function()
            self._tensor = self._tensor + update
            self.samples += n
            self.updated = True

    def __call__(self):
        return self._tensor / max(self.samples, 1)


class MergeGrowingModule(nn.Module):
    def __init__(self, in_features, post_merge_function=None):
        super().__init__()
        self.post_merge_function = post_merge_function or nn.Identity()
        self.store_activity = 1
        self.activity = None
        self.tensor_s = TensorStatistic((in_features, in_features), self.compute_s_update)

    def compute_s_update(self):
        return torch.einsum('ij,ik->jk', self.activity, self.activity), self.activity.shape[0]

    def forward(self, x):
        self.tensor_s.updated = False
        y = self.post_merge_function(x)
        if self.store_activity > 0:
            self.activity = y.detach()
            self.tensor_s.updated = False
        return y


class GrowingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(8, 16)
        self.merge = MergeGrowingModule(16, nn.ReLU())
        self.l2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.l2(self.merge(self.l1(x)))


net = GrowingNet()
optimizer = torch.optim.SGD(net.parameters(), lr=1e-2)
for step in range(20):
    x, y = torch.randn(32, 8), torch.randn(32, 2)
    loss = ((net(x) - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    net.merge.tensor_s.update()
print(loss.item(), net.merge.tensor_s().trace().item())
