# source: variant of https://github.com/lucidrains/gradnorm-pytorch/issues/8
# style: multitask
# cause: double_backward
# line: 37
# expert: the total weighted loss is backpropagated first and then each task loss is differentiated again with torch.autograd.grad to get its grad norm on the shared layer; that main backward must keep the graph (retain_graph=True, as GradNormLossWeighter does internally), only the last backward may free it
import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd import grad
from torch.nn import Parameter

torch.manual_seed(0)


def l1norm(t, dim=-1):
    return F.normalize(t, p=1, dim=dim)


class GradNormLossWeighter(nn.Module):
    def __init__(self, *, num_losses, learning_rate=1e-4, restoring_force_alpha=0., grad_norm_parameters=None):
        super().__init__()
        self.num_losses, self.alpha, self.learning_rate = num_losses, restoring_force_alpha, learning_rate
        self._grad_norm_parameters = [grad_norm_parameters]
        self.register_buffer('loss_weights', torch.ones(num_losses))
        self.register_buffer('initial_losses', torch.zeros(num_losses))
        self.register_buffer('loss_weights_sum', self.loss_weights.sum())
        self.register_buffer('loss_weights_grad', torch.zeros(num_losses), persistent=False)
        self.register_buffer('step', torch.tensor(0.))

    @property
    def grad_norm_parameters(self):
        return self._grad_norm_parameters[0]

    def backward(self, losses):
        losses = torch.stack(losses)
        total_weighted_loss = (losses * self.loss_weights.detach()).sum()
        total_weighted_loss.backward()
        if self.step.item() == 0:
            self.initial_losses.copy_(losses.detach())
        grad_norm_tensor = self.grad_norm_parameters
        grad_norms = []
        loss_weights = Parameter(self.loss_weights.clone())
        for weight, loss in zip(loss_weights, losses):
            gradients, = grad(weight * loss, grad_norm_tensor, create_graph=True, retain_graph=True)
            grad_norms.append(gradients.norm(p=2))
        grad_norms = torch.stack(grad_norms)
        loss_ratio = losses.detach() / self.initial_losses
        relative_training_rate = l1norm(loss_ratio) * self.num_losses
        gradient_target = (grad_norms.mean() * (relative_training_rate ** self.alpha)).detach()
        grad_norm_loss = F.l1_loss(grad_norms, gradient_target)
        grad_norm_loss.backward()
        self.loss_weights_grad.add_(loss_weights.grad)
        self.step.add_(1)
        updated = loss_weights - self.loss_weights_grad * self.learning_rate
        self.loss_weights.copy_(l1norm(updated) * self.loss_weights_sum)
        self.loss_weights_grad.zero_()
        return total_weighted_loss


backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16))
heads = nn.ModuleList([nn.Linear(16, 1) for _ in range(3)])
loss_weighter = GradNormLossWeighter(num_losses=3, learning_rate=1e-4, restoring_force_alpha=0.,
                                     grad_norm_parameters=backbone[-1].weight)
optimizer = torch.optim.Adam(list(backbone.parameters()) + list(heads.parameters()), lr=1e-3)
for step in range(3):
    x = torch.randn(6, 8)
    feats = backbone(x)
    losses = [F.mse_loss(h(feats), torch.randn(6, 1)) for h in heads]
    optimizer.zero_grad()
    total = loss_weighter.backward(losses)
    optimizer.step()
    print(step, total.item(), loss_weighter.loss_weights.tolist())
