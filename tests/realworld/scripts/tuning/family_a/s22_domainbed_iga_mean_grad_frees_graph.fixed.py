# source: variant of https://github.com/facebookresearch/DomainBed/issues/50
# style: meta
# cause: double_backward
# line: 145
# expert: autograd.grad(mean_loss, ...) is called without retain_graph=True, so it frees the saved tensors of the shared forward graph (all_logits and the network activations that mean_loss, the per-environment losses and the penalty all go through); the final loss.backward() then walks the same graph a second time and fails. Fix as in DomainBed after the create_graph patch (b296ea2): compute mean_grad with retain_graph=True, create_graph=True so the graph survives until loss.backward().
# Variant of the IGA update from domainbed/algorithms.py (after commit b296ea2, the fix of issue #50):
# here the mean-gradient call is written without retain_graph/create_graph (the only change). The
# MLP featurizer and linear classifier come from domainbed/networks.py; three random
# "environments" of 8-d inputs stand in for a DomainBed dataset.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd as autograd

torch.manual_seed(0)


# ---- domainbed/networks.py ----
class MLP(nn.Module):
    """Just  an MLP"""
    def __init__(self, n_inputs, n_outputs, hparams):
        super(MLP, self).__init__()
        self.input = nn.Linear(n_inputs, hparams['mlp_width'])
        self.dropout = nn.Dropout(hparams['mlp_dropout'])
        self.hiddens = nn.ModuleList([
            nn.Linear(hparams['mlp_width'], hparams['mlp_width'])
            for _ in range(hparams['mlp_depth']-2)])
        self.output = nn.Linear(hparams['mlp_width'], n_outputs)
        self.n_outputs = n_outputs

    def forward(self, x):
        x = self.input(x)
        x = self.dropout(x)
        x = F.relu(x)
        for hidden in self.hiddens:
            x = hidden(x)
            x = self.dropout(x)
            x = F.relu(x)
        x = self.output(x)
        return x


def Featurizer(input_shape, hparams):
    """Auto-select an appropriate featurizer for the given input shape."""
    if len(input_shape) == 1:
        return MLP(input_shape[0], hparams["mlp_width"], hparams)
    else:
        raise NotImplementedError


def Classifier(in_features, out_features, is_nonlinear=False):
    if is_nonlinear:
        return torch.nn.Sequential(
            torch.nn.Linear(in_features, in_features // 2),
            torch.nn.ReLU(),
            torch.nn.Linear(in_features // 2, in_features // 4),
            torch.nn.ReLU(),
            torch.nn.Linear(in_features // 4, out_features))
    else:
        return torch.nn.Linear(in_features, out_features)


# ---- domainbed/algorithms.py ----
class Algorithm(torch.nn.Module):
    """
    A subclass of Algorithm implements a domain generalization algorithm.
    Subclasses should implement the following:
    - update()
    - predict()
    """
    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super(Algorithm, self).__init__()
        self.hparams = hparams

    def update(self, minibatches, unlabeled=None):
        raise NotImplementedError

    def predict(self, x):
        raise NotImplementedError


class ERM(Algorithm):
    """
    Empirical Risk Minimization (ERM)
    """

    def __init__(self, input_shape, num_classes, num_domains, hparams):
        super(ERM, self).__init__(input_shape, num_classes, num_domains,
                                  hparams)
        self.featurizer = Featurizer(input_shape, self.hparams)
        self.classifier = Classifier(
            self.featurizer.n_outputs,
            num_classes,
            self.hparams['nonlinear_classifier'])

        self.network = nn.Sequential(self.featurizer, self.classifier)
        self.optimizer = torch.optim.Adam(
            self.network.parameters(),
            lr=self.hparams["lr"],
            weight_decay=self.hparams['weight_decay']
        )

    def update(self, minibatches, unlabeled=None):
        all_x = torch.cat([x for x,y in minibatches])
        all_y = torch.cat([y for x,y in minibatches])
        loss = F.cross_entropy(self.predict(all_x), all_y)

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

        return {'loss': loss.item()}

    def predict(self, x):
        return self.network(x)


class IGA(ERM):
    """
    Inter-environmental Gradient Alignment
    From https://arxiv.org/abs/2008.01883v2
    """

    def __init__(self, in_features, num_classes, num_domains, hparams):
        super(IGA, self).__init__(in_features, num_classes, num_domains, hparams)

    def update(self, minibatches, unlabeled=False):

        all_x = torch.cat([x for x,y in minibatches])
        all_logits = self.network(all_x)

        total_loss = 0
        all_logits_idx = 0
        grads = []
        for i, (x, y) in enumerate(minibatches):
            logits = all_logits[all_logits_idx:all_logits_idx + x.shape[0]]
            all_logits_idx += x.shape[0]
            
            env_loss = F.cross_entropy(logits, y)
            total_loss += env_loss

            grads.append( autograd.grad(env_loss, self.network.parameters(), retain_graph=True, create_graph=True) )
            
        mean_loss = total_loss / len(minibatches)
        mean_grad = autograd.grad(mean_loss, self.network.parameters(), retain_graph=True, create_graph=True)

        # compute trace penalty
        penalty_value = 0
        for grad in grads:
            for g, mean_g in zip(grad, mean_grad):
                penalty_value += (g - mean_g).pow(2).sum()

        loss = mean_loss + self.hparams['penalty'] * penalty_value

        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

        return {'loss': mean_loss.item(), 'penalty': penalty_value.item()}


if __name__ == "__main__":
    hparams = {'mlp_width': 32, 'mlp_depth': 3, 'mlp_dropout': 0.0, 'nonlinear_classifier': False,
               'lr': 1e-3, 'weight_decay': 0., 'penalty': 1000}
    algorithm = IGA((8,), 2, 3, hparams)

    for step in range(5):
        minibatches = []
        for env in range(3):
            x = torch.randn(16, 8) + env
            y = (x[:, 0] + 0.3 * env * x[:, 1] > env).long()
            minibatches.append((x, y))
        step_vals = algorithm.update(minibatches)
        print(step, step_vals)
