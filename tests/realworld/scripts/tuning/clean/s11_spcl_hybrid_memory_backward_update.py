# source: variant of https://github.com/yxgeee/SpCL/issues/15 (HM autograd.Function and HybridMemory from spcl/models/hm.py, device-agnostic instead of .cuda(), with a tiny encoder and random features/pseudo labels)
# style: contrastive
# expert: Correct: the memory bank is a registered buffer that takes no part in autograd; the custom HM Function only reads it in forward (ctx.features) and updates it by momentum inside backward, after the gradient for the inputs has been computed, so no graph is kept across iterations and no saved tensor is modified. As the maintainer explains in the issue, the memory features are updated during loss.backward(), not in forward.
import torch
import torch.nn.functional as F
from torch import nn, autograd

torch.manual_seed(0)


class HM(autograd.Function):

    @staticmethod
    def forward(ctx, inputs, indexes, features, momentum):
        ctx.features = features
        ctx.momentum = momentum
        ctx.save_for_backward(inputs, indexes)
        outputs = inputs.mm(ctx.features.t())

        return outputs

    @staticmethod
    def backward(ctx, grad_outputs):
        inputs, indexes = ctx.saved_tensors
        grad_inputs = None
        if ctx.needs_input_grad[0]:
            grad_inputs = grad_outputs.mm(ctx.features)

        # momentum update
        for x, y in zip(inputs, indexes):
            ctx.features[y] = ctx.momentum * ctx.features[y] + (1. - ctx.momentum) * x
            ctx.features[y] /= ctx.features[y].norm()

        return grad_inputs, None, None, None


def hm(inputs, indexes, features, momentum=0.5):
    return HM.apply(inputs, indexes, features, torch.Tensor([momentum]).to(inputs.device))


class HybridMemory(nn.Module):
    def __init__(self, num_features, num_samples, temp=0.05, momentum=0.2):
        super(HybridMemory, self).__init__()
        self.num_features = num_features
        self.num_samples = num_samples

        self.momentum = momentum
        self.temp = temp

        self.register_buffer('features', torch.zeros(num_samples, num_features))
        self.register_buffer('labels', torch.zeros(num_samples).long())

    def forward(self, inputs, indexes):
        # inputs: B*2048, features: L*2048
        inputs = hm(inputs, indexes, self.features, self.momentum)
        inputs /= self.temp
        B = inputs.size(0)
        device = inputs.device

        def masked_softmax(vec, mask, dim=1, epsilon=1e-6):
            exps = torch.exp(vec)
            masked_exps = exps * mask.float().clone()
            masked_sums = masked_exps.sum(dim, keepdim=True) + epsilon
            return (masked_exps/masked_sums)

        targets = self.labels[indexes].clone()
        labels = self.labels.clone()

        sim = torch.zeros(labels.max()+1, B).float().to(device)
        sim.index_add_(0, labels, inputs.t().contiguous())
        nums = torch.zeros(labels.max()+1, 1).float().to(device)
        nums.index_add_(0, labels, torch.ones(self.num_samples, 1).float().to(device))
        mask = (nums > 0).float()
        sim /= (mask*nums+(1-mask)).clone().expand_as(sim)
        mask = mask.expand_as(sim)
        masked_sim = masked_softmax(sim.t().contiguous(), mask.t().contiguous())
        return F.nll_loss(torch.log(masked_sim+1e-6), targets)


num_samples, num_features = 24, 16
encoder = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, num_features))
memory = HybridMemory(num_features, num_samples, temp=0.05, momentum=0.2)
images = torch.randn(num_samples, 32)

# initialise the memory with normalised features of the whole "dataset" and pseudo labels
with torch.no_grad():
    memory.features = F.normalize(encoder(images), dim=1)
memory.labels = torch.randint(0, 4, (num_samples,))

optimizer = torch.optim.Adam(encoder.parameters(), lr=3.5e-4)
for it in range(3):
    indexes = torch.randperm(num_samples)[:8]
    f_out = F.normalize(encoder(images[indexes]), dim=1)
    loss = memory(f_out, indexes)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"iter {it}: loss {loss.item():.4f}")
