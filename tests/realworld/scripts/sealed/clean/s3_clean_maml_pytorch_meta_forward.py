# source: https://github.com/dragen1860/MAML-Pytorch/blob/master/meta.py
# style: meta
# expert: correct MAML outer loop: fast weights come from autograd.grad on each task's support loss, query losses of all tasks are summed and the meta loss gets a single backward per meta step
import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(222)


class Learner(nn.Module):
    def __init__(self, n_in, n_hidden, n_way):
        super(Learner, self).__init__()
        self.vars = nn.ParameterList([
            nn.Parameter(torch.randn(n_hidden, n_in) * 0.1), nn.Parameter(torch.zeros(n_hidden)),
            nn.Parameter(torch.randn(n_way, n_hidden) * 0.1), nn.Parameter(torch.zeros(n_way))])

    def forward(self, x, vars=None, bn_training=True):
        if vars is None:
            vars = self.vars
        x = F.relu(F.linear(x, vars[0], vars[1]))
        return F.linear(x, vars[2], vars[3])

    def parameters(self):
        return self.vars


class Meta(nn.Module):
    def __init__(self, n_way=3, update_lr=0.4, meta_lr=1e-3, update_step=3):
        super(Meta, self).__init__()
        self.update_lr, self.meta_lr, self.n_way, self.update_step = update_lr, meta_lr, n_way, update_step
        self.net = Learner(8, 16, n_way)
        self.meta_optim = optim.Adam(self.net.parameters(), lr=self.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        querysz = x_qry.size(1)
        losses_q = [0 for _ in range(self.update_step + 1)]
        corrects = [0 for _ in range(self.update_step + 1)]
        for i in range(task_num):
            logits = self.net(x_spt[i], vars=None, bn_training=True)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters())
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))
            with torch.no_grad():
                logits_q = self.net(x_qry[i], self.net.parameters(), bn_training=True)
                losses_q[0] += F.cross_entropy(logits_q, y_qry[i])
                corrects[0] += torch.eq(F.softmax(logits_q, dim=1).argmax(dim=1), y_qry[i]).sum().item()
            with torch.no_grad():
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                losses_q[1] += F.cross_entropy(logits_q, y_qry[i])
                corrects[1] += torch.eq(F.softmax(logits_q, dim=1).argmax(dim=1), y_qry[i]).sum().item()
            for k in range(1, self.update_step):
                logits = self.net(x_spt[i], fast_weights, bn_training=True)
                loss = F.cross_entropy(logits, y_spt[i])
                grad = torch.autograd.grad(loss, fast_weights)
                fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, fast_weights)))
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[k + 1] += loss_q
                with torch.no_grad():
                    corrects[k + 1] += torch.eq(F.softmax(logits_q, dim=1).argmax(dim=1), y_qry[i]).sum().item()
        loss_q = losses_q[-1] / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return [c / (querysz * task_num) for c in corrects]


maml = Meta()
for step in range(5):
    x_spt, y_spt = torch.randn(4, 6, 8), torch.randint(0, 3, (4, 6))
    x_qry, y_qry = torch.randn(4, 9, 8), torch.randint(0, 3, (4, 9))
    accs = maml(x_spt, y_spt, x_qry, y_qry)
    print('step:', step, '\ttraining acc:', [round(a, 3) for a in accs])
