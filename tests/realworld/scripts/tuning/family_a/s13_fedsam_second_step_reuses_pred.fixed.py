# source: https://github.com/debcaldarola/fedsam/issues/6
# style: sam
# cause: shared_subgraph_multiple_backward
# line: 108
# expert: The descent step builds its loss from the outputs of the ascent-step forward pass, whose graph the first loss.backward() already freed (and which were computed at w, not at the perturbed w + eps); as the reporter found, and as the repository's SAMClient does, run the model again in the descent step: criterion(self.model(inputs), targets).backward().
import copy
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SAM:
    def __init__(self, optimizer, model, rho=0.05, eta=0.0):
        self.optimizer = optimizer
        self.model = model
        self.rho = rho
        self.eta = eta
        self.state = defaultdict(dict)

    @torch.no_grad()
    def ascent_step(self):
        grads = []
        for n, p in self.model.named_parameters():
            if p.grad is None:
                continue
            grads.append(torch.norm(p.grad, p=2))
        grad_norm = torch.norm(torch.stack(grads), p=2) + 1.e-16
        for n, p in self.model.named_parameters():
            if p.grad is None:
                continue
            eps = self.state[p].get("eps")
            if eps is None:
                eps = torch.clone(p).detach()
                self.state[p]["eps"] = eps
            eps[...] = p.grad[...]
            eps.mul_(self.rho / grad_norm)
            p.add_(eps)
        self.optimizer.zero_grad()

    @torch.no_grad()
    def descent_step(self):
        for n, p in self.model.named_parameters():
            if p.grad is None:
                continue
            p.sub_(self.state[p]["eps"])
        self.optimizer.step()
        self.optimizer.zero_grad()


class CNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(8 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = x.flatten(1)
        return self.fc2(F.relu(self.fc1(x)))


class Client:
    def __init__(self, client_id, train_data, model, lr=0.01, momentum=0.9, weight_decay=4e-4):
        self.id = client_id
        self.trainloader = train_data
        self.model = model
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay
        self.device = torch.device("cpu")

    def train(self, num_epochs=1):
        criterion = nn.CrossEntropyLoss()
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr,
                                    weight_decay=self.weight_decay, momentum=self.momentum)
        for epoch in range(num_epochs):
            self.model.train()
            loss = self.run_epoch(optimizer, criterion)
        update = copy.deepcopy(self.model.state_dict())
        return len(self.trainloader), update, loss


class SAMClient(Client):
    def __init__(self, client_id, train_data, model, rho=0.05, eta=0.0):
        super().__init__(client_id, train_data, model)
        self.rho = rho
        self.eta = eta

    def run_epoch(self, optimizer, criterion):
        minimizer = SAM(optimizer, self.model, self.rho, self.eta)
        running_loss = 0.0
        i = 0
        for inputs, targets in self.trainloader:
            inputs = inputs.to(self.device)
            targets = targets.to(self.device)

            # Ascent Step
            pred = self.model(inputs)
            loss = criterion(pred, targets)
            loss.backward()
            minimizer.ascent_step()

            # Descent Step
            criterion(self.model(inputs), targets).backward()
            minimizer.descent_step()

            with torch.no_grad():
                running_loss += loss.item()
            i += 1
        return running_loss / i


# FedAvg round with two clients on random CIFAR-like data
global_model = CNN()
clients = [SAMClient(c, [(torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))) for _ in range(2)],
                     copy.deepcopy(global_model)) for c in range(2)]
updates = []
for client in clients:
    client.model.load_state_dict(global_model.state_dict())
    n, update, loss = client.train(num_epochs=1)
    updates.append((n, update))
    print(f"client {client.id}: loss {loss:.4f}")
total = sum(n for n, _ in updates)
avg = {k: sum(n * u[k].float() for n, u in updates) / total for k in updates[0][1]}
global_model.load_state_dict(avg)
print("round done")
