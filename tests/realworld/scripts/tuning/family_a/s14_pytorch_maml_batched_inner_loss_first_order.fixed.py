# source: https://github.com/tristandeleu/pytorch-maml/commit/b14b2e50f83dcc1ac7a6a8e0b86141d0ecdaee54 (maml/metalearner.py as it was at 9f26c21, just before this fix: get_inner_loss runs one batched forward for all tasks and update_parameters had just lost its retain_graph=True; MetaModule/MetaSequential/MetaConv2d/MetaLinear from maml/modules at that commit, a 2-block conv net and random 5-way tasks, first_order=True)
# style: meta
# cause: shared_subgraph_multiple_backward
# line: 164
# expert: get_outer_loss computes inner_loss for every task with ONE batched forward (get_inner_loss on all of batch['train']) and then calls torch.autograd.grad(inner_loss[task_id], ...) once per task; with first_order=True the grad call does not retain the graph, so the first task frees the shared forward and the second task's grad backpropagates through it again. The fix commit "Compute the inner_loss individually for each task" moves the inner-loss forward inside the task loop, one forward per task (the fixed file also drops the leftover batched call, as the follow-up commit 780c759 "Remove legacy inner_loss from get_outer_loss" did).
import re
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


# ---- maml/modules ----------------------------------------------------------
def get_subdict(dictionary, key=None):
    if dictionary is None:
        return None
    if (key is None) or (key == ''):
        return dictionary
    key_re = re.compile(r'^{0}\.(.+)'.format(re.escape(key)))
    return OrderedDict((key_re.sub(r'\1', k), value) for (k, value)
        in dictionary.items() if key_re.match(k) is not None)


class MetaModule(nn.Module):
    def meta_named_parameters(self, prefix='', recurse=True):
        gen = self._named_members(
            lambda module: module._parameters.items()
            if isinstance(module, MetaModule) else [],
            prefix=prefix, recurse=recurse)
        for elem in gen:
            yield elem

    def meta_parameters(self, recurse=True):
        for name, param in self.meta_named_parameters(recurse=recurse):
            yield param


class MetaSequential(nn.Sequential, MetaModule):
    def forward(self, input, params=None):
        for name, module in self._modules.items():
            if isinstance(module, MetaModule):
                input = module(input, params=get_subdict(params, name))
            elif isinstance(module, nn.Module):
                input = module(input)
            else:
                raise TypeError('The module must be either a torch module '
                    '(inheriting from `nn.Module`), or a `MetaModule`. '
                    'Got type: `{0}`'.format(type(module)))
        return input


class MetaConv2d(nn.Conv2d, MetaModule):
    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        bias = params.get('bias', None)
        return F.conv2d(input, params['weight'], bias,
            self.stride, self.padding, self.dilation, self.groups)


class MetaLinear(nn.Linear, MetaModule):
    def forward(self, input, params=None):
        if params is None:
            params = OrderedDict(self.named_parameters())
        bias = params.get('bias', None)
        return F.linear(input, params['weight'], bias)


# ---- maml/model.py (two conv blocks instead of four) -----------------------
def conv_block(in_channels, out_channels, **kwargs):
    return MetaSequential(OrderedDict([
        ('conv', MetaConv2d(in_channels, out_channels, **kwargs)),
        ('norm', nn.BatchNorm2d(out_channels)),
        ('relu', nn.LeakyReLU())
    ]))


class MetaVGGNetwork(MetaModule):
    def __init__(self, in_channels, out_features, hidden_size=8):
        super(MetaVGGNetwork, self).__init__()
        self.in_channels = in_channels
        self.out_features = out_features
        self.hidden_size = hidden_size

        self.features = MetaSequential(OrderedDict([
            ('conv1', conv_block(in_channels, hidden_size, kernel_size=3,
                                 stride=1, padding=1, bias=True)),
            ('pool1', nn.MaxPool2d(2)),
            ('conv2', conv_block(hidden_size, hidden_size, kernel_size=3,
                                 stride=1, padding=1, bias=True)),
            ('pool2', nn.MaxPool2d(2)),
        ]))

        self.classifier = MetaLinear(hidden_size * 2 * 2, out_features, bias=True)

    def forward(self, inputs, params=None):
        features = self.features(inputs,
            params=get_subdict(params, 'features'))
        features = features.view((features.size(0), -1))
        logits = self.classifier(features,
            params=get_subdict(params, 'classifier'))
        return logits


# ---- maml/utils.py ----------------------------------------------------------
def update_parameters(model, loss, step_size=0.5, first_order=False, out=None):
    if not isinstance(model, MetaModule):
        raise ValueError()
    grads = torch.autograd.grad(loss, model.meta_parameters(),
        create_graph=not first_order)
    if out is None:
        out = OrderedDict()
    if not isinstance(step_size, dict):
        step_size = OrderedDict((name, step_size)
            for (name, _) in model.meta_named_parameters())
    for (name, param), grad in zip(model.meta_named_parameters(), grads):
        out[name] = param - step_size[name] * grad

    return out


# ---- maml/metalearner.py ----------------------------------------------------
class ModelAgnosticMetaLearning(object):
    def __init__(self, model, optimizer, step_size=0.1, first_order=False,
                 learn_step_size=True, per_param_step_size=True,
                 scheduler=None, loss_function=F.cross_entropy, num_workers=4,
                 device=None):
        self.model = model.to(device=device)
        self.optimizer = optimizer
        self.step_size = step_size
        self.first_order = first_order
        self.num_workers = num_workers
        self.scheduler = scheduler
        self.loss_function = loss_function
        self.device = device

        if per_param_step_size:
            self.step_size = OrderedDict((name, torch.tensor(step_size,
                dtype=param.dtype, device=self.device,
                requires_grad=learn_step_size)) for (name, param)
                in model.meta_named_parameters())
        else:
            step_size_tensor = torch.tensor(step_size, dtype=torch.float32,
                device=self.device, requires_grad=learn_step_size)
            self.step_size = OrderedDict((name, step_size_tensor)
                for (name, _) in model.meta_named_parameters())

        if learn_step_size:
            self.optimizer.add_param_group({'params': self.step_size.values()})

    def get_inner_loss(self, inputs, targets, params=None):
        logits = self.model(inputs, params=params)
        inner_loss = self.loss_function(logits, targets)
        return inner_loss

    def get_outer_loss(self, batch):
        if batch['test'] is None:
            raise RuntimeError('The batch does not contain any test dataset.')

        outer_loss = torch.tensor(0., device=self.device)
        for train_inputs, train_targets, test_inputs, test_targets \
                in zip(*batch['train'], *batch['test']):
            inner_loss = self.get_inner_loss(train_inputs, train_targets)
            self.model.zero_grad()
            params = update_parameters(self.model, inner_loss,
                step_size=self.step_size, first_order=self.first_order)
            test_logits = self.model(test_inputs, params=params)
            outer_loss += self.loss_function(test_logits, test_targets)
        outer_loss.div_(test_targets.size(0))
        return outer_loss

    def train(self, dataloader, max_batches=500):
        for loss in self.train_iter(dataloader, max_batches=max_batches):
            print('outer loss %.4f' % loss.item())

    def train_iter(self, dataloader, max_batches=500):
        num_batches = 0
        while num_batches < max_batches:
            for batch in dataloader:
                if num_batches >= max_batches:
                    break

                self.model.train()
                self.optimizer.zero_grad()

                outer_loss = self.get_outer_loss(batch)
                yield outer_loss

                outer_loss.backward()
                self.optimizer.step()

                num_batches += 1


def make_batches(num_batches=2, num_tasks=4, ways=5, shots=2, size=8):
    """Stands in for the Omniglot BatchMetaDataLoader: (tasks, ways*shots, 1, 8, 8) images."""
    batches = []
    for _ in range(num_batches):
        targets = torch.arange(ways).repeat_interleave(shots).expand(num_tasks, -1).contiguous()
        batches.append({
            'train': (torch.randn(num_tasks, ways * shots, 1, size, size), targets),
            'test': (torch.randn(num_tasks, ways * shots, 1, size, size), targets.clone()),
        })
    return batches


model = MetaVGGNetwork(1, 5, hidden_size=8)
meta_optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
metalearner = ModelAgnosticMetaLearning(model, meta_optimizer, step_size=0.4,
                                        first_order=True)
metalearner.train(make_batches(), max_batches=2)
