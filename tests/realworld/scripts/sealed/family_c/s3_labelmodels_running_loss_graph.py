# source: https://github.com/BatsResearch/labelmodels/issues/4
# style: tabular
# cause: graph_kept_alive
# line: 33
# expert: accumulate the epoch statistic as a Python float (running_loss += loss.item()) so each batch's graph is freed after backward
import logging
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class LabelModel(nn.Module):
    """Parent class for all generative label models."""

    def _do_estimate_label_model(self, batches, config):
        optimizer = torch.optim.SGD(
            self.parameters(), lr=config.step_size, momentum=config.momentum,
            weight_decay=0)
        for epoch in range(config.epochs):
            logging.info('Epoch {}/{}'.format(epoch + 1, config.epochs))
            self.train()
            running_loss = 0.0
            for i_batch, inputs in enumerate(batches):
                optimizer.zero_grad()
                log_likelihood = self(*inputs)
                loss = -1 * torch.mean(log_likelihood)
                loss += self._get_regularization_loss()
                loss.backward()
                optimizer.step()
                running_loss += loss
            epoch_loss = running_loss / len(batches)
            print('Train Loss: %.6f' % epoch_loss)

    def _get_regularization_loss(self):
        return 0.0


class ClassConditionalLabelModel(LabelModel):
    def __init__(self, num_classes, num_lfs, init_acc, acc_prior):
        super().__init__()
        init_acc = -1 * np.log(1.0 / init_acc - 1) / 2
        init_param = torch.tensor([[init_acc] * num_classes for _ in range(num_lfs)], dtype=torch.float32)
        self.accuracy = nn.Parameter(init_param)
        self.propensity = nn.Parameter(torch.zeros([num_lfs]))
        self.num_classes = num_classes
        self.num_lfs = num_lfs
        self.init_acc = init_acc
        self.acc_prior = acc_prior

    def _get_labeling_function_likelihoods(self, votes):
        rows, cols = np.nonzero(votes)
        cll = torch.zeros(votes.shape[0], self.num_classes)
        z_prop = self.propensity.unsqueeze(1)
        z_prop = torch.cat((z_prop, torch.zeros((self.num_lfs, 1))), dim=1)
        z_prop = torch.logsumexp(z_prop, dim=1)
        z_acc = self.accuracy.unsqueeze(2)
        z_acc = torch.cat((z_acc, -1 * self.accuracy.unsqueeze(2)), dim=2)
        z_acc = torch.logsumexp(z_acc, dim=2)
        cll -= torch.sum(z_prop)
        for i, j in zip(rows, cols):
            v = votes[i, j]
            for k in range(self.num_classes):
                if v == (k + 1):
                    logp = self.propensity[j] + self.accuracy[j, k] - z_acc[j, k]
                    cll[i, k] += logp
                else:
                    logp = self.propensity[j] - self.accuracy[j, k] - z_acc[j, k]
                    logp -= torch.log(torch.tensor(self.num_classes - 1.0))
                    cll[i, k] += logp
        return cll

    def _get_regularization_loss(self):
        return self.acc_prior * torch.norm(self.accuracy - self.init_acc)


class NaiveBayes(ClassConditionalLabelModel):
    def __init__(self, num_classes, num_lfs, init_acc=.9, acc_prior=0.025):
        super().__init__(num_classes, num_lfs, init_acc, acc_prior)
        self.class_balance = nn.Parameter(torch.zeros([num_classes]))

    def forward(self, votes):
        class_ll = self._get_norm_class_balance()
        conditional_ll = self._get_labeling_function_likelihoods(votes)
        joint_ll = conditional_ll + class_ll
        return torch.logsumexp(joint_ll, dim=1)

    def _get_norm_class_balance(self):
        return self.class_balance - torch.logsumexp(self.class_balance, dim=0)

    def estimate_label_model(self, votes, config):
        batches = [(votes[i:i + config.batch_size],) for i in range(0, votes.shape[0], config.batch_size)]
        self._do_estimate_label_model(batches, config)


class LearningConfig(object):
    def __init__(self):
        self.epochs = 3
        self.batch_size = 8
        self.step_size = 0.01
        self.momentum = 0.9


votes = np.random.randint(0, 3, size=(32, 4))
model = NaiveBayes(num_classes=2, num_lfs=4)
model.estimate_label_model(votes, LearningConfig())
