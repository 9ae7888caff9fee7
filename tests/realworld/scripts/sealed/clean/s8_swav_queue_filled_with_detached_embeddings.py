# source: https://github.com/facebookresearch/swav/issues/48
# style: contrastive
# expert: The queue of past features is filled with `embedding.detach()` and the codes `q` (including the `queue @ prototypes` scores) are computed under `torch.no_grad()`, so no tensor carries a graph from one iteration into the next and only the current batch's `output` is backpropagated; the maintainer confirms the detached embedding is only used to fill the queue and is not part of the gradient computation.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Args:
    nmb_crops = [2]
    crops_for_assign = [0, 1]
    temperature = 0.1
    epsilon = 0.05
    sinkhorn_iterations = 3
    queue_length = 16
    feat_dim = 8
    nmb_prototypes = 5
    freeze_prototypes_niters = 2
    epoch_queue_starts = 0


args = Args()


class ResNetLike(nn.Module):
    def __init__(self, in_dim=12, feat_dim=8, nmb_prototypes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU())
        self.projection_head = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, feat_dim))
        self.prototypes = nn.Linear(feat_dim, nmb_prototypes, bias=False)

    def forward(self, inputs):
        x = torch.cat(inputs)
        x = nn.functional.normalize(self.projection_head(self.backbone(x)), dim=1, p=2)
        return x, self.prototypes(x)


def distributed_sinkhorn(Q, nmb_iters):
    with torch.no_grad():
        Q /= torch.sum(Q)
        r = torch.ones(Q.shape[0]) / Q.shape[0]
        c = torch.ones(Q.shape[1]) / Q.shape[1]
        curr_sum = torch.sum(Q, dim=1)
        for it in range(nmb_iters):
            u = curr_sum
            Q *= (r / u).unsqueeze(1)
            Q *= (c / torch.sum(Q, dim=0)).unsqueeze(0)
            curr_sum = torch.sum(Q, dim=1)
        return (Q / torch.sum(Q, dim=0, keepdim=True)).t().float()


def train(train_loader, model, optimizer, epoch, queue):
    softmax = nn.Softmax(dim=1)
    model.train()
    use_the_queue = False
    for it, inputs in enumerate(train_loader):
        iteration = epoch * len(train_loader) + it
        # normalize the prototypes
        with torch.no_grad():
            w = model.prototypes.weight.data.clone()
            w = nn.functional.normalize(w, dim=1, p=2)
            model.prototypes.weight.copy_(w)

        # ============ multi-res forward passes ... ============
        embedding, output = model(inputs)
        embedding = embedding.detach()
        bs = inputs[0].size(0)

        # ============ swav loss ... ============
        loss = 0
        for i, crop_id in enumerate(args.crops_for_assign):
            with torch.no_grad():
                out = output[bs * crop_id: bs * (crop_id + 1)]
                # time to use the queue
                if queue is not None:
                    if use_the_queue or not torch.all(queue[i, -1, :] == 0):
                        use_the_queue = True
                        out = torch.cat((torch.mm(queue[i], model.prototypes.weight.t()), out))
                    # fill the queue
                    queue[i, bs:] = queue[i, :-bs].clone()
                    queue[i, :bs] = embedding[crop_id * bs: (crop_id + 1) * bs]
                # get assignments
                q = torch.exp(out / args.epsilon).t()
                q = distributed_sinkhorn(q, args.sinkhorn_iterations)[-bs:]

            # cluster assignment prediction
            subloss = 0
            for v in np.delete(np.arange(np.sum(args.nmb_crops)), crop_id):
                p = softmax(output[bs * v: bs * (v + 1)] / args.temperature)
                subloss -= torch.mean(torch.sum(q * torch.log(p), dim=1))
            loss += subloss / (np.sum(args.nmb_crops) - 1)
        loss /= len(args.crops_for_assign)

        # ============ backward and optim step ... ============
        optimizer.zero_grad()
        loss.backward()
        # cancel some gradients
        if iteration < args.freeze_prototypes_niters:
            for name, p in model.named_parameters():
                if "prototypes" in name:
                    p.grad = None
        optimizer.step()
        print("epoch", epoch, "it", it, "loss", round(loss.item(), 4), "queue in use", use_the_queue)
    return queue


model = ResNetLike(feat_dim=args.feat_dim, nmb_prototypes=args.nmb_prototypes)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
base = [torch.randn(4, 12) for _ in range(4)]
train_loader = [[b + 0.1 * torch.randn_like(b), b + 0.1 * torch.randn_like(b)] for b in base]
queue = None
for epoch in range(3):
    if args.queue_length > 0 and epoch >= args.epoch_queue_starts and queue is None:
        queue = torch.zeros(len(args.crops_for_assign), args.queue_length, args.feat_dim)
    queue = train(train_loader, model, optimizer, epoch, queue)
