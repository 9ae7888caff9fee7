# source: https://github.com/zhuangdizhu/FedGen/issues/1
# style: federated
# cause: numpy_on_grad_tensor
# line: 45
# expert: the users' test losses are tensors that still carry the graph; detach them before numpy sums them (x * y.detach())
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return {'output': F.log_softmax(self.fc(x), dim=1)}


class UserAVG:
    def __init__(self, id, n_test=10):
        self.id = id
        self.model = Net()
        self.loss = nn.NLLLoss()
        self.test_x = torch.randn(n_test, 8)
        self.test_y = torch.randint(0, 3, (n_test,))

    def test(self):
        self.model.eval()
        test_acc = 0
        loss = 0
        output = self.model(self.test_x)['output']
        loss += self.loss(output, self.test_y)
        test_acc += (torch.sum(torch.argmax(output, dim=1) == self.test_y)).item()
        return test_acc, loss, self.test_y.shape[0]


class Server:
    def __init__(self, num_users=3):
        self.selected_users = [UserAVG(i, n_test=10 + i) for i in range(num_users)]
        self.metrics = {'glob_acc': [], 'glob_loss': []}

    def test(self):
        num_samples, tot_correct, losses = [], [], []
        for c in self.selected_users:
            ct, c_loss, ns = c.test()
            tot_correct.append(ct * 1.0)
            num_samples.append(ns)
            losses.append(c_loss)
        ids = [c.id for c in self.selected_users]
        return ids, num_samples, tot_correct, losses

    def evaluate(self):
        test_ids, test_samples, test_accs, test_losses = self.test()
        glob_acc = np.sum(test_accs) * 1.0 / np.sum(test_samples)
        glob_loss = np.sum([x * y.detach() for (x, y) in zip(test_samples, test_losses)]).item() / np.sum(test_samples)
        self.metrics['glob_acc'].append(glob_acc)
        self.metrics['glob_loss'].append(glob_loss)
        print("Average Global Accurancy = {:.4f}, Loss = {:.2f}.".format(glob_acc, glob_loss))


Server().evaluate()
