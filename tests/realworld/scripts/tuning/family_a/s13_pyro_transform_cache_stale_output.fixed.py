# source: https://github.com/pyro-ppl/pyro/pull/2283
# style: vae
# cause: tensor_reused_across_iterations
# line: 22
# expert: With cache_size=1 the Transform keeps (x, y) from its last call and returns the old y when called again with the same tensor object; the parameter log_scale is the same object every step (optimizer updates it in place), so step 2 gets step 1's y whose graph was already freed by backward. The PR drops the cached value once backward has run; in user code build the transform without caching (cache_size=0) so y is recomputed every step.
import torch
import torch.nn as nn
from torch.distributions import Normal
from torch.distributions.transforms import ExpTransform

torch.manual_seed(0)

# toy data: x ~ N(z, 1), z ~ N(0, 1)
data = torch.randn(16, 2) + torch.tensor([1.5, -0.5])


class MeanFieldGuide(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.scale_transform = ExpTransform(cache_size=0)

    @property
    def scale(self):
        return self.scale_transform(self.log_scale)

    def forward(self):
        return Normal(self.loc, self.scale)


def elbo(guide, num_particles=4):
    q = guide()
    z = q.rsample((num_particles,))
    log_p = Normal(0.0, 1.0).log_prob(z).sum(-1) + \
        Normal(z.unsqueeze(1), 1.0).log_prob(data).sum((-1, -2))
    log_q = q.log_prob(z).sum(-1)
    return (log_p - log_q).mean()


guide = MeanFieldGuide(2)
optimizer = torch.optim.Adam(guide.parameters(), lr=0.05)
for step in range(5):
    optimizer.zero_grad()
    loss = -elbo(guide)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 3), guide.scale.detach().tolist())
