# source: https://github.com/Liuhong99/Sophia/issues/1
# style: optim
# cause: shared_subgraph_multiple_backward
# line: 76
# expert: for the Hessian (GNB) estimate run a fresh forward pass on the batch (as train_sophiag.py does, or in a separate function as the reporter ended up doing) instead of building loss_sampled on the logits whose graph was already freed by loss.backward()
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.optimizer import Optimizer

torch.manual_seed(0)


class SophiaG(Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.965, 0.99), rho=0.04, weight_decay=1e-1):
        defaults = dict(lr=lr, betas=betas, rho=rho, weight_decay=weight_decay)
        super(SophiaG, self).__init__(params, defaults)

    @torch.no_grad()
    def update_hessian(self):
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['exp_avg'] = torch.zeros_like(p)
                    state['hessian'] = torch.zeros_like(p)
                state['hessian'].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)

    @torch.no_grad()
    def step(self, bs=5120):
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['exp_avg'] = torch.zeros_like(p)
                    state['hessian'] = torch.zeros_like(p)
                state['step'] += 1
                p.mul_(1 - group['lr'] * group['weight_decay'])
                state['exp_avg'].mul_(beta1).add_(p.grad, alpha=1 - beta1)
                ratio = (state['exp_avg'].abs() / (group['rho'] * bs * state['hessian'] + 1e-15)).clamp(None, 1)
                p.addcmul_(state['exp_avg'].sign(), ratio, value=-group['lr'])


class MultimodalNet(nn.Module):
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.img = nn.Linear(20, d)
        self.tok = nn.Embedding(vocab, d)
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, image, tokens, targets=None):
        h = self.tok(tokens) + self.img(image).unsqueeze(1)
        logits = self.lm_head(torch.tanh(h))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss


model = MultimodalNet()
optimizer = SophiaG(model.parameters(), lr=2e-4, betas=(0.965, 0.99), rho=0.01, weight_decay=1e-1)
hess_interval = 2
batch_size, block_size = 4, 8
batches = [(torch.randn(batch_size, 20), torch.randint(0, 32, (batch_size, block_size)),
            torch.randint(0, 32, (batch_size, block_size))) for _ in range(6)]

for iter_num, (image, X, Y) in enumerate(batches):
    logits, loss = model(image, X, Y)
    loss.backward()
    optimizer.step(bs=batch_size * block_size)
    optimizer.zero_grad(set_to_none=True)
    if iter_num % hess_interval == hess_interval - 1:
        # update hessian EMA
        samp_dist = torch.distributions.Categorical(logits=logits)
        y_sample = samp_dist.sample()
        loss_sampled = F.cross_entropy(logits.view(-1, logits.size(-1)), y_sample.view(-1), ignore_index=-1)
        loss_sampled.backward()
        optimizer.update_hessian()
        optimizer.zero_grad(set_to_none=True)
    print(f"iter {iter_num}: loss {loss.item():.4f}")
