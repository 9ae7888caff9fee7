# source: https://github.com/tristandeleu/pytorch-maml-rl/pull/13 (the PR hoists the KL gradient flat_grad_kl out of the Hessian-vector product closure so it is computed once per conjugate-gradient solve; here without the retain_graph=True on the inner torch.autograd.grad that the reviewer asked about and the author explained is required. MetaLearner, Policy/NormalMLPPolicy, conjugate_gradient and torch_utils of the repo at b4f7b62; a tiny 2D-navigation sampler and a zero baseline stand in for the gym sampler and the LinearFeatureBaseline)
# style: meta
# cause: computed_before_loop
# line: 249
# expert: flat_grad_kl (the KL gradient built with create_graph=True) is now computed once, outside _product, and every conjugate-gradient iteration calls torch.autograd.grad(grad_kl_v, params) through it; the first call frees the double-backward graph behind flat_grad_kl, so the second CG iteration raises "Trying to backward through the graph a second time". As the PR author answers in the review, the inner grad must keep that graph: torch.autograd.grad(grad_kl_v, self.policy.parameters(), retain_graph=True) (the hoisting itself is what saves the ~10 %).
import math
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal
from torch.distributions.kl import kl_divergence
from torch.nn.utils.convert_parameters import (vector_to_parameters,
                                               parameters_to_vector)

torch.manual_seed(0)


# ---- maml_rl/utils/torch_utils.py ----
def weighted_mean(tensor, dim=None, weights=None):
    if weights is None:
        return torch.mean(tensor)
    if dim is None:
        sum_weights = torch.sum(weights)
        return torch.sum(tensor * weights) / sum_weights
    if isinstance(dim, int):
        dim = (dim,)
    numerator = tensor * weights
    denominator = weights
    for dimension in dim:
        numerator = torch.sum(numerator, dimension, keepdim=True)
        denominator = torch.sum(denominator, dimension, keepdim=True)
    return numerator / denominator


def detach_distribution(pi):
    return Normal(loc=pi.loc.detach(), scale=pi.scale.detach())


def weighted_normalize(tensor, dim=None, weights=None, epsilon=1e-8):
    if weights is None:
        weights = torch.ones_like(tensor)
    mean = weighted_mean(tensor, dim=dim, weights=weights)
    centered = tensor * weights - mean
    std = torch.sqrt(weighted_mean(centered ** 2, dim=dim, weights=weights))
    return centered / (std + epsilon)


# ---- maml_rl/utils/optimization.py ----
def conjugate_gradient(f_Ax, b, cg_iters=10, residual_tol=1e-10):
    p = b.clone().detach()
    r = b.clone().detach()
    x = torch.zeros_like(b).float()
    rdotr = torch.dot(r, r)

    for i in range(cg_iters):
        z = f_Ax(p).detach()
        v = rdotr / torch.dot(p, z)
        x += v * p
        r -= v * z
        newrdotr = torch.dot(r, r)
        mu = newrdotr / rdotr
        p = r + mu * p

        rdotr = newrdotr
        if rdotr.item() < residual_tol:
            break

    return x.detach()


# ---- maml_rl/policies/policy.py and normal_mlp.py ----
def weight_init(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)
        module.bias.data.zero_()


class Policy(nn.Module):
    def __init__(self, input_size, output_size):
        super(Policy, self).__init__()
        self.input_size = input_size
        self.output_size = output_size

    def update_params(self, loss, step_size=0.5, first_order=False):
        grads = torch.autograd.grad(loss, self.parameters(),
            create_graph=not first_order)
        updated_params = OrderedDict()
        for (name, param), grad in zip(self.named_parameters(), grads):
            updated_params[name] = param - step_size * grad

        return updated_params


class NormalMLPPolicy(Policy):
    def __init__(self, input_size, output_size, hidden_sizes=(),
                 nonlinearity=F.relu, init_std=1.0, min_std=1e-6):
        super(NormalMLPPolicy, self).__init__(
            input_size=input_size, output_size=output_size)
        self.hidden_sizes = hidden_sizes
        self.nonlinearity = nonlinearity
        self.min_log_std = math.log(min_std)
        self.num_layers = len(hidden_sizes) + 1

        layer_sizes = (input_size,) + hidden_sizes
        for i in range(1, self.num_layers):
            self.add_module('layer{0}'.format(i),
                nn.Linear(layer_sizes[i - 1], layer_sizes[i]))
        self.mu = nn.Linear(layer_sizes[-1], output_size)

        self.sigma = nn.Parameter(torch.Tensor(output_size))
        self.sigma.data.fill_(math.log(init_std))
        self.apply(weight_init)

    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        output = input
        for i in range(1, self.num_layers):
            output = F.linear(output,
                weight=params['layer{0}.weight'.format(i)],
                bias=params['layer{0}.bias'.format(i)])
            output = self.nonlinearity(output)
        mu = F.linear(output, weight=params['mu.weight'],
            bias=params['mu.bias'])
        scale = torch.exp(torch.clamp(params['sigma'], min=self.min_log_std))

        return Normal(loc=mu, scale=scale)


# ---- stand-ins for the gym sampler (2D navigation), BatchEpisodes and the baseline ----
class BatchEpisodes(object):
    def __init__(self, observations, actions, rewards, gamma):
        self.observations, self.actions, self.rewards = observations, actions, rewards
        self.mask = torch.ones(rewards.shape)
        self.gamma = gamma

    def gae(self, values, tau=1.0):
        returns = torch.zeros_like(self.rewards)
        running = torch.zeros(self.rewards.shape[1])
        for t in reversed(range(self.rewards.shape[0])):
            running = self.rewards[t] + self.gamma * running
            returns[t] = running
        return returns - values


class Navigation2DSampler(object):
    def __init__(self, batch_size=8, horizon=10):
        self.batch_size, self.horizon = batch_size, horizon
        self.goal = torch.zeros(2)

    def reset_task(self, task):
        self.goal = task

    def sample(self, policy, params=None, gamma=0.95, device='cpu'):
        obs, acts, rews = [], [], []
        state = torch.zeros(self.batch_size, 2)
        with torch.no_grad():
            for t in range(self.horizon):
                pi = policy(state, params=params)
                action = pi.sample().clamp(-0.1, 0.1)
                obs.append(state); acts.append(action)
                state = state + action
                rews.append(-torch.norm(state - self.goal, dim=1))
        return BatchEpisodes(torch.stack(obs), torch.stack(acts), torch.stack(rews), gamma)


class ZeroBaseline(nn.Module):
    def fit(self, episodes):
        pass

    def forward(self, episodes):
        return torch.zeros(episodes.rewards.shape)


# ---- maml_rl/metalearner.py ----
class MetaLearner(object):
    def __init__(self, sampler, policy, baseline, gamma=0.95,
                 fast_lr=0.5, tau=1.0, device='cpu'):
        self.sampler = sampler
        self.policy = policy
        self.baseline = baseline
        self.gamma = gamma
        self.fast_lr = fast_lr
        self.tau = tau
        self.device = device

    def inner_loss(self, episodes, params=None):
        values = self.baseline(episodes)
        advantages = episodes.gae(values, tau=self.tau)
        advantages = weighted_normalize(advantages, weights=episodes.mask)

        pi = self.policy(episodes.observations, params=params)
        log_probs = pi.log_prob(episodes.actions)
        if log_probs.dim() > 2:
            log_probs = torch.sum(log_probs, dim=2)
        loss = -weighted_mean(log_probs * advantages, weights=episodes.mask)

        return loss

    def adapt(self, episodes, first_order=False):
        self.baseline.fit(episodes)
        loss = self.inner_loss(episodes)
        params = self.policy.update_params(loss, step_size=self.fast_lr,
            first_order=first_order)

        return params

    def sample(self, tasks, first_order=False):
        episodes = []
        for task in tasks:
            self.sampler.reset_task(task)
            train_episodes = self.sampler.sample(self.policy,
                gamma=self.gamma, device=self.device)

            params = self.adapt(train_episodes, first_order=first_order)

            valid_episodes = self.sampler.sample(self.policy, params=params,
                gamma=self.gamma, device=self.device)
            episodes.append((train_episodes, valid_episodes))
        return episodes

    def kl_divergence(self, episodes, old_pis=None):
        kls = []
        if old_pis is None:
            old_pis = [None] * len(episodes)

        for (train_episodes, valid_episodes), old_pi in zip(episodes, old_pis):
            params = self.adapt(train_episodes)
            pi = self.policy(valid_episodes.observations, params=params)

            if old_pi is None:
                old_pi = detach_distribution(pi)

            mask = valid_episodes.mask
            if valid_episodes.actions.dim() > 2:
                mask = mask.unsqueeze(2)
            kl = weighted_mean(kl_divergence(pi, old_pi), weights=mask)
            kls.append(kl)

        return torch.mean(torch.stack(kls, dim=0))

    def hessian_vector_product(self, episodes, damping=1e-2):
        """Hessian-vector product, based on the Perlmutter method."""
        kl = self.kl_divergence(episodes)
        grads = torch.autograd.grad(kl, self.policy.parameters(),
            create_graph=True)
        flat_grad_kl = parameters_to_vector(grads)
        def _product(vector):
            grad_kl_v = torch.dot(flat_grad_kl, vector)
            grad2s = torch.autograd.grad(grad_kl_v, self.policy.parameters(),
                                         retain_graph=True)
            flat_grad2_kl = parameters_to_vector(grad2s)

            return flat_grad2_kl + damping * vector
        return _product

    def surrogate_loss(self, episodes, old_pis=None):
        losses, kls, pis = [], [], []
        if old_pis is None:
            old_pis = [None] * len(episodes)

        for (train_episodes, valid_episodes), old_pi in zip(episodes, old_pis):
            params = self.adapt(train_episodes)
            with torch.set_grad_enabled(old_pi is None):
                pi = self.policy(valid_episodes.observations, params=params)
                pis.append(detach_distribution(pi))

                if old_pi is None:
                    old_pi = detach_distribution(pi)

                values = self.baseline(valid_episodes)
                advantages = valid_episodes.gae(values, tau=self.tau)
                advantages = weighted_normalize(advantages,
                    weights=valid_episodes.mask)

                log_ratio = (pi.log_prob(valid_episodes.actions)
                    - old_pi.log_prob(valid_episodes.actions))
                if log_ratio.dim() > 2:
                    log_ratio = torch.sum(log_ratio, dim=2)
                ratio = torch.exp(log_ratio)

                loss = -weighted_mean(ratio * advantages,
                    weights=valid_episodes.mask)
                losses.append(loss)

                mask = valid_episodes.mask
                if valid_episodes.actions.dim() > 2:
                    mask = mask.unsqueeze(2)
                kl = weighted_mean(kl_divergence(pi, old_pi), weights=mask)
                kls.append(kl)

        return (torch.mean(torch.stack(losses, dim=0)),
                torch.mean(torch.stack(kls, dim=0)), pis)

    def step(self, episodes, max_kl=1e-3, cg_iters=10, cg_damping=1e-2,
             ls_max_steps=10, ls_backtrack_ratio=0.5):
        old_loss, _, old_pis = self.surrogate_loss(episodes)
        grads = torch.autograd.grad(old_loss, self.policy.parameters())
        grads = parameters_to_vector(grads)

        # Compute the step direction with Conjugate Gradient
        hessian_vector_product = self.hessian_vector_product(episodes,
            damping=cg_damping)
        stepdir = conjugate_gradient(hessian_vector_product, grads,
            cg_iters=cg_iters)

        # Compute the Lagrange multiplier
        shs = 0.5 * torch.dot(stepdir, hessian_vector_product(stepdir))
        lagrange_multiplier = torch.sqrt(shs / max_kl)

        step = stepdir / lagrange_multiplier

        # Save the old parameters
        old_params = parameters_to_vector(self.policy.parameters())

        # Line search
        step_size = 1.0
        for _ in range(ls_max_steps):
            vector_to_parameters(old_params - step_size * step,
                                 self.policy.parameters())
            loss, kl, _ = self.surrogate_loss(episodes, old_pis=old_pis)
            improve = loss - old_loss
            if (improve.item() < 0.0) and (kl.item() < max_kl):
                break
            step_size *= ls_backtrack_ratio
        else:
            vector_to_parameters(old_params, self.policy.parameters())


# ---- main.py (2DNavigation-v0, trimmed) ----
sampler = Navigation2DSampler(batch_size=8, horizon=10)
policy = NormalMLPPolicy(2, 2, hidden_sizes=(16, 16))
baseline = ZeroBaseline()
metalearner = MetaLearner(sampler, policy, baseline, gamma=0.99, fast_lr=0.1, tau=1.0)

for batch in range(2):
    tasks = [torch.rand(2) * 2 - 1 for _ in range(4)]
    episodes = metalearner.sample(tasks, first_order=False)
    metalearner.step(episodes, max_kl=0.01, cg_iters=5, cg_damping=1e-5,
                     ls_max_steps=5, ls_backtrack_ratio=0.8)
    print('batch', batch, 'valid return',
          torch.mean(torch.stack([ep.rewards.sum(0).mean() for _, ep in episodes])).item())
