# source: https://github.com/quark0/darts/issues/17
# style: nas
# expert: correct: first-order DARTS (python train_search.py, unrolled=False): the architect backpropagates a fresh validation loss into the alphas, then the weights get a fresh training loss; the softmax over alphas is recomputed in every forward
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)

PRIMITIVES = ['none', 'skip_connect', 'linear_relu', 'linear_tanh']


class Zero(nn.Module):
    def forward(self, x):
        return x.mul(0.)


OPS = {
    'none': lambda C: Zero(),
    'skip_connect': lambda C: nn.Identity(),
    'linear_relu': lambda C: nn.Sequential(nn.Linear(C, C), nn.ReLU()),
    'linear_tanh': lambda C: nn.Sequential(nn.Linear(C, C), nn.Tanh()),
}


class MixedOp(nn.Module):
    def __init__(self, C):
        super(MixedOp, self).__init__()
        self._ops = nn.ModuleList([OPS[p](C) for p in PRIMITIVES])

    def forward(self, x, weights):
        return sum(w * op(x) for w, op in zip(weights, self._ops))


class Network(nn.Module):
    def __init__(self, C, num_classes, layers, criterion):
        super(Network, self).__init__()
        self._criterion = criterion
        self.stem = nn.Linear(10, C)
        self.cells = nn.ModuleList([MixedOp(C) for _ in range(layers)])
        self.classifier = nn.Linear(C, num_classes)
        self.alphas_normal = nn.Parameter(1e-3 * torch.randn(layers, len(PRIMITIVES)))

    def arch_parameters(self):
        return [self.alphas_normal]

    def weight_parameters(self):
        return [p for n, p in self.named_parameters() if 'alphas' not in n]

    def forward(self, input):
        s = self.stem(input)
        weights = F.softmax(self.alphas_normal, dim=-1)
        for i, cell in enumerate(self.cells):
            s = cell(s, weights[i])
        return self.classifier(s)

    def _loss(self, input, target):
        return self._criterion(self(input), target)


class Architect(object):
    def __init__(self, model, arch_learning_rate=3e-4, arch_weight_decay=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.arch_parameters(), lr=arch_learning_rate,
                                          betas=(0.5, 0.999), weight_decay=arch_weight_decay)

    def step(self, input_train, target_train, input_valid, target_valid, eta, network_optimizer, unrolled):
        self.optimizer.zero_grad()
        self._backward_step(input_valid, target_valid)
        self.optimizer.step()

    def _backward_step(self, input_valid, target_valid):
        loss = self.model._loss(input_valid, target_valid)
        loss.backward()


criterion = nn.CrossEntropyLoss()
model = Network(8, 3, 3, criterion)
optimizer = torch.optim.SGD(model.weight_parameters(), 0.025, momentum=0.9, weight_decay=3e-4)
architect = Architect(model)
train_queue = [(torch.randn(6, 10), torch.randint(0, 3, (6,))) for _ in range(3)]
valid_queue = [(torch.randn(6, 10), torch.randint(0, 3, (6,))) for _ in range(3)]
for epoch in range(2):
    for step, ((input, target), (input_search, target_search)) in enumerate(zip(train_queue, valid_queue)):
        architect.step(input, target, input_search, target_search, 0.025, optimizer, unrolled=False)
        optimizer.zero_grad()
        logits = model(input)
        loss = criterion(logits, target)
        loss.backward()
        nn.utils.clip_grad_norm_(model.weight_parameters(), 5.0)
        optimizer.step()
    print(epoch, loss.item(), F.softmax(model.alphas_normal, dim=-1)[0].tolist())
