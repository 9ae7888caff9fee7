# source: https://github.com/zhuangdizhu/FedGen/issues/15
# style: federated
# cause: numpy_on_grad_tensor
# line: 29
# expert: detach the per-user test losses before numpy touches them (test_losses = [t.detach() for t in test_losses]) in Server.evaluate
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class User:
    def __init__(self, model, n):
        self.model, self.x, self.y = model, torch.randn(n, 10), torch.randint(0, 3, (n,))
        self.loss = nn.CrossEntropyLoss()

    def test(self):
        output = self.model(self.x)
        test_acc = (output.argmax(1) == self.y).sum().item()
        loss = self.loss(output, self.y)
        return test_acc, loss, self.y.shape[0]


def evaluate(users):
    stats = [u.test() for u in users]
    test_ids, test_samples, test_accs, test_losses = range(len(users)), [s[2] for s in stats], [s[0] for s in stats], [s[1] for s in stats]
    glob_acc = np.sum(test_accs) * 1.0 / np.sum(test_samples)
    glob_loss = np.sum([x * y for (x, y) in zip(test_samples, test_losses)]).item() / np.sum(test_samples)
    print("Average Global Accurancy = {:.4f}, Loss = {:.2f}.".format(glob_acc, glob_loss))


model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
users = [User(model, n) for n in (20, 30, 25)]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for glob_iter in range(2):
    for u in users:
        opt.zero_grad()
        u.loss(model(u.x), u.y).backward()
        opt.step()
    evaluate(users)
