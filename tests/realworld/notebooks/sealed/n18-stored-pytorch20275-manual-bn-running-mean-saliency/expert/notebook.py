# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
class MyBatchNorm2d(nn.BatchNorm2d):
    def __init__(self, num_features, eps=1e-5, momentum=0.1,
                 affine=True, track_running_stats=True):
        super(MyBatchNorm2d, self).__init__(
            num_features, eps, momentum, affine, track_running_stats)

    def forward(self, input):
        self._check_input_dim(input)

        exponential_average_factor = 0.0

        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked += 1
                if self.momentum is None:  # use cumulative moving average
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:  # use exponential moving average
                    exponential_average_factor = self.momentum

        # calculate running estimates
        if self.training:
            mean = input.mean([0, 2, 3])
            # use biased var in train
            var = input.var([0, 2, 3], unbiased=False)
            n = input.numel() / input.size(1)
            with torch.no_grad():
                self.running_mean = exponential_average_factor * mean\
                    + (1 - exponential_average_factor) * self.running_mean
                # update running_var with unbiased var
                self.running_var = exponential_average_factor * var * n / (n - 1)\
                    + (1 - exponential_average_factor) * self.running_var
        else:
            mean = self.running_mean
            var = self.running_var

        input = (input - mean[None, :, None, None]) / (torch.sqrt(var[None, :, None, None] + self.eps))
        if self.affine:
            input = input * self.weight[None, :, None, None] + self.bias[None, :, None, None]

        return input
# %%
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), MyBatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_batches = [(torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,))) for _ in range(3)]
# %%
model.train()
for data, target in train_batches:
    optimizer.zero_grad()
    loss = F.cross_entropy(model(data), target)
    loss.backward()
    optimizer.step()
    print(loss.item())
# %%
# saliency map of a test image in eval mode
model.eval()
image = torch.randn(1, 3, 8, 8, requires_grad=True)
scores = model(image)
scores[0, scores.argmax()].backward()
saliency = image.grad.abs().max(dim=1)[0]
print(saliency.shape)
