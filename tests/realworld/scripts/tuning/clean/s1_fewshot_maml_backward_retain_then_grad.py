# source: https://github.com/oscarknagg/few-shot/blob/1644863ef0468de71975d0743c368717c07711b6/few_shot/maml.py
# style: meta
# expert: correct: the query loss is backpropagated with retain_graph=True before torch.autograd.grad reads the same graph again, and the second-order meta loss is backpropagated once
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def create_nshot_task_label(k, q):
    return torch.arange(0, k, 1 / q).long()


class FewShotClassifier(nn.Module):
    def __init__(self, d=10, k_way=3):
        super().__init__()
        self.fc1 = nn.Linear(d, 16)
        self.logits = nn.Linear(16, k_way)

    def forward(self, x):
        return self.logits(F.relu(self.fc1(x)))

    def functional_forward(self, x, weights):
        x = F.relu(F.linear(x, weights['fc1.weight'], weights['fc1.bias']))
        return F.linear(x, weights['logits.weight'], weights['logits.bias'])


def meta_gradient_step(model, optimiser, loss_fn, x, y, n_shot, k_way, q_queries, order, inner_train_steps, inner_lr, train, device):
    create_graph = (True if order == 2 else False) and train
    task_gradients = []
    task_losses = []
    task_predictions = []
    for meta_batch in x:
        x_task_train = meta_batch[:n_shot * k_way]
        x_task_val = meta_batch[n_shot * k_way:]
        fast_weights = OrderedDict(model.named_parameters())
        for inner_batch in range(inner_train_steps):
            y = create_nshot_task_label(k_way, n_shot).to(device)
            logits = model.functional_forward(x_task_train, fast_weights)
            loss = loss_fn(logits, y)
            gradients = torch.autograd.grad(loss, fast_weights.values(), create_graph=create_graph)
            fast_weights = OrderedDict((name, param - inner_lr * grad) for ((name, param), grad) in zip(fast_weights.items(), gradients))
        y = create_nshot_task_label(k_way, q_queries).to(device)
        logits = model.functional_forward(x_task_val, fast_weights)
        loss = loss_fn(logits, y)
        loss.backward(retain_graph=True)
        y_pred = logits.softmax(dim=1)
        task_predictions.append(y_pred)
        task_losses.append(loss)
        gradients = torch.autograd.grad(loss, fast_weights.values(), create_graph=create_graph)
        named_grads = {name: g for ((name, _), g) in zip(fast_weights.items(), gradients)}
        task_gradients.append(named_grads)
    if order == 2:
        model.train()
        optimiser.zero_grad()
        meta_batch_loss = torch.stack(task_losses).mean()
        if train:
            meta_batch_loss.backward()
            optimiser.step()
        return meta_batch_loss, torch.cat(task_predictions)


model = FewShotClassifier()
optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
n_shot, k_way, q_queries = 1, 3, 2
for episode in range(3):
    x = torch.randn(2, n_shot * k_way + q_queries * k_way, 10)
    loss, _ = meta_gradient_step(model, optimiser, nn.CrossEntropyLoss(), x, None, n_shot, k_way, q_queries,
                                 order=2, inner_train_steps=2, inner_lr=0.4, train=True, device='cpu')
    print(episode, loss.item())
