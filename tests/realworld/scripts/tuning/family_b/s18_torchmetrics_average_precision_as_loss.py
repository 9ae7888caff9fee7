# source: https://github.com/Lightning-AI/torchmetrics/issues/388 (the reporter's snippet as posted, with task="binary" added because the installed torchmetrics 1.x requires it for AveragePrecision)
# style: tabular
# cause: no_grad_fn
# line: 12
# expert: AveragePrecision is rank-based and not differentiable, so torchmetrics returns a plain tensor with no grad_fn and loss.backward() fails with "element 0 of tensors does not require grad". The maintainer's answer: this is expected, the metric cannot be used as a training criterion; train with a differentiable loss such as torch.nn.BCELoss (as the reporter concluded) and keep AveragePrecision for evaluation.
import torch
import torchmetrics

x = torch.tensor([0.1, 0.6, 0.3], requires_grad=True)
y = torch.tensor([0, 1, 1])

loss = torchmetrics.AveragePrecision(task="binary")(x, y)
loss.backward() # RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

loss = torchmetrics.MeanSquaredError()(x, y)
loss.backward() # work as expected
print(x.grad)
