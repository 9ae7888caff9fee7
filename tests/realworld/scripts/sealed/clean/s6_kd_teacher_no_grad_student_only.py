# source: https://github.com/haitongli/knowledge-distillation-pytorch/issues/25
# style: distillation
# expert: correct: the teacher runs in eval mode and its logits are produced under torch.no_grad(), so the KD loss (KL on temperature-softened outputs plus cross entropy) backpropagates only into the student and the teacher's weights never receive gradients
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

torch.manual_seed(0)
np.random.seed(0)


class Net(nn.Module):
    """Small CNN student (model/net.py), 3 x 16 x 16 inputs."""

    def __init__(self, params):
        super(Net, self).__init__()
        self.num_channels = params.num_channels
        self.conv1 = nn.Conv2d(3, self.num_channels, 3, stride=1, padding=1)
        self.bn1 = nn.BatchNorm2d(self.num_channels)
        self.conv2 = nn.Conv2d(self.num_channels, self.num_channels * 2, 3, stride=1, padding=1)
        self.bn2 = nn.BatchNorm2d(self.num_channels * 2)
        self.fc1 = nn.Linear(4 * 4 * self.num_channels * 2, self.num_channels * 4)
        self.fcbn1 = nn.BatchNorm1d(self.num_channels * 4)
        self.fc2 = nn.Linear(self.num_channels * 4, 10)
        self.dropout_rate = params.dropout_rate

    def forward(self, s):
        s = self.bn1(self.conv1(s))
        s = F.relu(F.max_pool2d(s, 2))
        s = self.bn2(self.conv2(s))
        s = F.relu(F.max_pool2d(s, 2))
        s = s.view(-1, 4 * 4 * self.num_channels * 2)
        s = F.dropout(F.relu(self.fcbn1(self.fc1(s))),
                      p=self.dropout_rate, training=self.training)
        s = self.fc2(s)
        return s


def loss_fn_kd(outputs, labels, teacher_outputs, params):
    alpha = params.alpha
    T = params.temperature
    KD_loss = nn.KLDivLoss(reduction='batchmean')(F.log_softmax(outputs / T, dim=1),
                                                  F.softmax(teacher_outputs / T, dim=1)) * (alpha * T * T) + \
        F.cross_entropy(outputs, labels) * (1. - alpha)
    return KD_loss


def accuracy(outputs, labels):
    outputs = np.argmax(outputs, axis=1)
    return np.sum(outputs == labels) / float(labels.size)


metrics = {'accuracy': accuracy}


class RunningAverage():
    def __init__(self):
        self.steps = 0
        self.total = 0

    def update(self, val):
        self.total += val
        self.steps += 1

    def __call__(self):
        return self.total / float(self.steps)


def train_kd(model, teacher_model, optimizer, loss_fn_kd, dataloader, metrics, params):
    # set model to training mode
    model.train()
    teacher_model.eval()

    summ = []
    loss_avg = RunningAverage()

    for i, (train_batch, labels_batch) in enumerate(dataloader):
        # compute model output, fetch teacher output, and compute KD loss
        output_batch = model(train_batch)

        with torch.no_grad():
            output_teacher_batch = teacher_model(train_batch)

        loss = loss_fn_kd(output_batch, labels_batch, output_teacher_batch, params)

        # clear previous gradients, compute gradients of all variables wrt loss
        optimizer.zero_grad()
        loss.backward()

        # performs updates using calculated gradients
        optimizer.step()

        # Evaluate summaries only once in a while
        if i % params.save_summary_steps == 0:
            output_batch = output_batch.data.cpu().numpy()
            labels_batch = labels_batch.data.cpu().numpy()
            summary_batch = {metric: metrics[metric](output_batch, labels_batch)
                             for metric in metrics}
            summary_batch['loss'] = loss.item()
            summ.append(summary_batch)

        # update the average loss
        loss_avg.update(loss.item())

    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Train metrics: " + metrics_string, "; avg loss: {:05.3f}".format(loss_avg()))


params = SimpleNamespace(num_channels=4, dropout_rate=0.5, alpha=0.9, temperature=4,
                         save_summary_steps=2, learning_rate=1e-3, num_epochs=2)
teacher_model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 32), nn.ReLU(), nn.Linear(32, 10))
model = Net(params)
optimizer = torch.optim.Adam(model.parameters(), lr=params.learning_rate)
dataloader = [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(6)]
teacher_before = [p.clone() for p in teacher_model.parameters()]
for epoch in range(params.num_epochs):
    train_kd(model, teacher_model, optimizer, loss_fn_kd, dataloader, metrics, params)
assert all(p.grad is None for p in teacher_model.parameters())
assert all(torch.equal(a, b) for a, b in zip(teacher_before, teacher_model.parameters()))
