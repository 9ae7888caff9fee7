"""Cut-down torchbearer 0.2.2 (Oct 2018): the torchbearer.Model fitting loop, the metric
plumbing, and metrics.EpochLambda / metrics.RocAucScore copied from torchbearer/metrics/wrappers.py
and torchbearer/metrics/roc_auc_score.py as they were before PR #425. sklearn.metrics.roc_auc_score
is replaced by a small numpy version (sklearn converts its inputs with numpy in the same way)."""
import numpy as np
import torch

Y_TRUE, Y_PRED, BATCH, EPOCH, DEVICE, DATA_TYPE, LOSS = 'y_true', 'y_pred', 't', 'epoch', 'device', 'dtype', 'loss'


def _sklearn_roc_auc_score(y_true, y_score):
    """macro-averaged one-vs-rest ROC AUC (Mann-Whitney U), like sklearn.metrics.roc_auc_score"""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    aucs = []
    for k in range(y_true.shape[1]):
        pos, neg = y_score[y_true[:, k] == 1, k], y_score[y_true[:, k] == 0, k]
        if len(pos) and len(neg):
            aucs.append(((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()))
    return float(np.mean(aucs))


class EpochLambda(object):
    """A metric wrapper which computes the given function for concatenated values of 'y_true' and 'y_pred' each epoch.
    Can be used as a running metric which computes the function for batches of outputs with a given step size during
    training."""

    def __init__(self, name, metric_function, running=True, step_size=50):
        self.name = name
        self._step = metric_function
        self._final = metric_function
        self._step_size = step_size
        self._result = 0.0
        if not running:
            self._step = lambda y_pred, y_true: ...

    def process_train(self, *args):
        state = args[0]
        self._y_true = torch.cat((self._y_true, state[Y_TRUE]), dim=0)
        self._y_pred = torch.cat((self._y_pred, state[Y_PRED].float()), dim=0)
        if state[BATCH] % self._step_size == 0:
            self._result = self._step(self._y_pred, self._y_true)
        return self._result

    def process_final_train(self, *args):
        return self._final(self._y_pred, self._y_true)

    def reset(self, state):
        self._y_true = torch.zeros(0).long()
        self._y_pred = torch.zeros(0)
        self._y_true = self._y_true.to(state[DEVICE])
        self._y_pred = self._y_pred.to(state[DEVICE], state[DATA_TYPE])


class RocAucScore(EpochLambda):
    """Area Under ROC curve metric. Default for keys: 'roc_auc', 'roc_auc_score'."""

    def __init__(self, one_hot_labels=True, one_hot_offset=0, one_hot_classes=10):
        def to_categorical(y):
            return np.eye(one_hot_classes, dtype='uint8')[y - one_hot_offset]

        if one_hot_labels:
            process = to_categorical
        else:
            process = lambda y: y

        super().__init__('roc_auc_score', lambda y_pred, y_true: _sklearn_roc_auc_score(process(y_true.cpu().numpy()), y_pred.cpu().detach().numpy()))


_METRICS = {'roc_auc': RocAucScore, 'roc_auc_score': RocAucScore}


class Model(object):
    """torchbearer.Model(model, optimizer, criterion, metrics=[...]).fit_generator(...), training part only"""

    def __init__(self, model, optimizer, criterion, metrics=()):
        self.model, self.optimizer, self.criterion = model, optimizer, criterion
        self.metrics = [_METRICS[m]() if isinstance(m, str) else m for m in metrics]

    def fit_generator(self, generator, epochs=1):
        history = []
        for epoch in range(epochs):
            state = {EPOCH: epoch, DEVICE: 'cpu', DATA_TYPE: torch.float32}
            for metric in self.metrics:
                metric.reset(state)
            self.model.train()
            for t, (x, y_true) in enumerate(generator):
                state[BATCH] = t
                state[Y_TRUE] = y_true
                self.optimizer.zero_grad()
                state[Y_PRED] = self.model(x)
                state[LOSS] = self.criterion(state[Y_PRED], state[Y_TRUE])
                state[LOSS].backward()
                self.optimizer.step()
                logs = {m.name: m.process_train(state) for m in self.metrics}
            logs = {m.name: m.process_final_train(state) for m in self.metrics}
            print(f'epoch {epoch}: loss {state[LOSS].item():.4f}', logs)
            history.append(logs)
        return history
