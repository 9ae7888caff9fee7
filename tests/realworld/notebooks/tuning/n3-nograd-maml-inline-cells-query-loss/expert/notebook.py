# %%
import torch
import torch.nn.functional as F
torch.manual_seed(222)
n_way, k_spt, k_qry, task_num = 3, 1, 2, 2
update_lr, meta_lr, update_step = 0.4, 1e-3, 1
vars = [torch.randn(16, 8) * 0.3, torch.zeros(16), torch.randn(n_way, 16) * 0.3, torch.zeros(n_way)]
vars = [v.requires_grad_() for v in vars]
meta_optim = torch.optim.Adam(vars, lr=meta_lr)

def net(x, weights):
    w1, b1, w2, b2 = weights
    return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)
# %%
x_spt = torch.randn(task_num, n_way * k_spt, 8)
y_spt = torch.arange(n_way).repeat(task_num, k_spt)
x_qry = torch.randn(task_num, n_way * k_qry, 8)
y_qry = torch.arange(n_way).repeat(task_num, k_qry)
# %%
losses_q = [0 for _ in range(update_step + 1)]
corrects = [0 for _ in range(update_step + 1)]
for i in range(task_num):
    loss = F.cross_entropy(net(x_spt[i], vars), y_spt[i])
    grad = torch.autograd.grad(loss, vars)
    fast_weights = [p - update_lr * g for g, p in zip(grad, vars)]
    with torch.no_grad():
        logits_q = net(x_qry[i], vars)
        losses_q[0] += F.cross_entropy(logits_q, y_qry[i])
        corrects[0] += torch.eq(logits_q.argmax(dim=1), y_qry[i]).sum().item()
    for k in range(1, update_step):
        loss = F.cross_entropy(net(x_spt[i], fast_weights), y_spt[i])
        grad = torch.autograd.grad(loss, fast_weights)
        fast_weights = [p - update_lr * g for g, p in zip(grad, fast_weights)]
        losses_q[k] += F.cross_entropy(net(x_qry[i], fast_weights), y_qry[i])
    logits_q = net(x_qry[i], fast_weights)
    losses_q[update_step] += F.cross_entropy(logits_q, y_qry[i])
    with torch.no_grad():
        corrects[update_step] += torch.eq(logits_q.argmax(dim=1), y_qry[i]).sum().item()
# %%
loss_q = losses_q[-1] / task_num
meta_optim.zero_grad()
loss_q.backward()
meta_optim.step()
print('training acc:', [c / (n_way * k_qry * task_num) for c in corrects])
