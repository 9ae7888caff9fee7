# source: https://github.com/lhoyer/DAFormer/issues/59
# style: distillation
# expert: correct: the EMA teacher is updated from the student weights outside autograd and its pseudo-labels are detached before the mixed loss, so each step backpropagates only through the current student graph
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DACS:
    def __init__(self, model, alpha=0.99, pseudo_threshold=0.968):
        self.model = model
        self.ema_model = copy.deepcopy(model)
        for param in self.ema_model.parameters():
            param.detach_()
        self.alpha, self.pseudo_threshold = alpha, pseudo_threshold
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=6e-5)

    def _update_ema(self, iter):
        alpha_teacher = min(1 - 1 / (iter + 1), self.alpha)
        for ema_param, param in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_param.data[:] = alpha_teacher * ema_param[:].data[:] + (1 - alpha_teacher) * param[:].data[:]

    def train_step(self, iter, img, gt, target_img):
        self.optimizer.zero_grad()
        src_loss = F.cross_entropy(self.model(img), gt)
        src_loss.backward()
        self._update_ema(iter)
        ema_logits = self.ema_model(target_img)
        ema_softmax = torch.softmax(ema_logits.detach(), dim=1)
        pseudo_prob, pseudo_label = torch.max(ema_softmax, dim=1)
        ps_large_p = pseudo_prob.ge(self.pseudo_threshold).long() == 1
        pseudo_weight = torch.sum(ps_large_p).item() / ps_large_p.numel()
        mixed_img = 0.5 * img + 0.5 * target_img
        mix_loss = pseudo_weight * F.cross_entropy(self.model(mixed_img), pseudo_label)
        mix_loss.backward()
        self.optimizer.step()
        return src_loss.item(), mix_loss.item()


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 4, 1))
uda = DACS(model)
for it in range(4):
    img, gt, target_img = torch.randn(2, 3, 8, 8), torch.randint(0, 4, (2, 8, 8)), torch.randn(2, 3, 8, 8)
    print(it, uda.train_step(it, img, gt, target_img))
