# %%
import itertools
from itertools import chain
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
cuda = False


def truncated_normal_(tensor, mean=0, std=0.01):
    size = tensor.shape
    tmp = tensor.new_empty(size + (4,)).normal_()
    valid = (tmp < 2) & (tmp > -2)
    ind = valid.max(-1, keepdim=True)[1]
    tensor.data.copy_(tmp.gather(-1, ind).squeeze(-1))
    tensor.data.mul_(std).add_(mean)
# %%
class AlexNet(nn.Module):
    """MSTN's AlexNet from model.py, with a two-conv feature extractor and 32-d fc layers."""

    def __init__(self, cudable, n_class, d=16):
        super(AlexNet, self).__init__()
        self.cudable = cudable
        self.n_class = n_class
        self.decay = 0.3
        self.s_centroid = torch.zeros(self.n_class, d)
        self.t_centroid = torch.zeros(self.n_class, d)
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, stride=1, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Linear(16 * 2 * 2, 32),
            nn.ReLU(inplace=True),
            nn.Dropout(),
        )
        self.fc8 = nn.Sequential(nn.Linear(32, d))
        self.fc9 = nn.Sequential(nn.Linear(d, self.n_class))
        self.softmax = nn.Softmax(dim=0)
        self.D = nn.Sequential(
            nn.Linear(d, 32),
            nn.ReLU(inplace=True),
            nn.Dropout(),
            nn.Linear(32, 1)
        )
        self.init()

    def init(self):
        self.init_linear(self.fc8[0])
        self.init_linear(self.fc9[0], std=0.005)
        self.init_linear(self.D[0], D=True)
        self.init_linear(self.D[3], D=True, std=0.3)
        self.CEloss, self.MSEloss, self.BCEloss = nn.CrossEntropyLoss(), nn.MSELoss(), nn.BCEWithLogitsLoss(reduction='mean')

    def init_linear(self, m, std=0.01, D=False):
        truncated_normal_(m.weight.data, 0, std)
        if D:
            m.bias.data.fill_(0)
        else:
            m.bias.data.fill_(0.1)

    def forward(self, x, training=True):
        conv_out = self.features(x)
        flattened = conv_out.view(conv_out.size(0), -1)
        dense_out = self.classifier(flattened)
        feature = self.fc8(dense_out)
        score = self.fc9(feature)
        pred = self.softmax(score)
        return feature, score, pred

    def forward_D(self, feature):
        logit = self.D(feature)
        return logit

    def closs(self, y_pred, y):
        C_loss = self.CEloss(y_pred, y)
        return C_loss

    def adloss(self, s_logits, t_logits, s_feature, t_feature, y_s, y_t):
        n, d = s_feature.shape

        # get labels
        s_labels, t_labels = y_s, torch.max(y_t, 1)[1]

        # image number in each class
        ones = torch.ones_like(s_labels, dtype=torch.float)
        zeros = torch.zeros(self.n_class)
        s_n_classes = zeros.scatter_add(0, s_labels, ones)
        t_n_classes = zeros.scatter_add(0, t_labels, ones)

        # image number cannot be 0, when calculating centroids
        ones = torch.ones_like(s_n_classes)
        s_n_classes = torch.max(s_n_classes, ones)
        t_n_classes = torch.max(t_n_classes, ones)

        # calculating centroids, sum and divide
        zeros = torch.zeros(self.n_class, d)
        s_sum_feature = zeros.scatter_add(0, torch.transpose(s_labels.repeat(d, 1), 1, 0), s_feature)
        t_sum_feature = zeros.scatter_add(0, torch.transpose(t_labels.repeat(d, 1), 1, 0), t_feature)
        current_s_centroid = torch.div(s_sum_feature, s_n_classes.view(self.n_class, 1))
        current_t_centroid = torch.div(t_sum_feature, t_n_classes.view(self.n_class, 1))

        # Moving Centroid
        decay = self.decay
        s_centroid = (1-decay) * self.s_centroid + decay * current_s_centroid
        t_centroid = (1-decay) * self.t_centroid + decay * current_t_centroid
        semantic_loss = self.MSEloss(s_centroid, t_centroid)
        self.s_centroid = s_centroid.detach()
        self.t_centroid = t_centroid.detach()

        # sigmoid binary cross entropy with reduce mean
        D_real_loss = self.BCEloss(t_logits, torch.ones_like(t_logits))
        D_fake_loss = self.BCEloss(s_logits, torch.zeros_like(s_logits))
        D_loss = (D_real_loss + D_fake_loss) * 0.1
        G_loss = -D_loss

        return G_loss, D_loss, semantic_loss

    def regloss(self):
        Dregloss = [torch.sum(layer.weight ** 2) / 2 for layer in self.D if type(layer) == nn.Linear]
        layers = chain(self.features, self.classifier, self.fc8, self.fc9)
        Gregloss = [torch.sum(layer.weight ** 2) / 2 for layer in layers if type(layer) == nn.Conv2d or type(layer) == nn.Linear]
        mean = lambda x: 0.0005 * torch.mean(torch.stack(x))
        return mean(Dregloss), mean(Gregloss)

    def get_optimizer(self, init_lr, lr_mult, lr_mult_D):
        w_finetune, b_finetune, w_train, b_train, w_D, b_D = [], [], [], [], [], []
        finetune_layers = itertools.chain(self.features, self.classifier)
        train_layers = itertools.chain(self.fc8, self.fc9)
        for layer in finetune_layers:
            if type(layer) == nn.Conv2d or type(layer) == nn.Linear:
                w_finetune.append(layer.weight)
                b_finetune.append(layer.bias)
        for layer in train_layers:
            if type(layer) == nn.Linear:
                w_train.append(layer.weight)
                b_train.append(layer.bias)
        for layer in self.D:
            if type(layer) == nn.Linear:
                w_D.append(layer.weight)
                b_D.append(layer.bias)
        opt = torch.optim.SGD([{'params': w_finetune, 'lr': init_lr * lr_mult[0]},
                               {'params': b_finetune, 'lr': init_lr * lr_mult[1]},
                               {'params': w_train, 'lr': init_lr * lr_mult[2]},
                               {'params': b_train, 'lr': init_lr * lr_mult[3]}],
                              lr=init_lr, momentum=0.9)
        opt_D = torch.optim.SGD([{'params': w_D, 'lr': init_lr * lr_mult_D[0]},
                                 {'params': b_D, 'lr': init_lr * lr_mult_D[1]}],
                                lr=init_lr, momentum=0.9)
        return opt, opt_D
# %%
def lr_schedule(opt, epoch, mult):
    lr = init_lr / pow(1 + 0.001 * epoch, 0.75)
    for ind, param_group in enumerate(opt.param_groups):
        param_group['lr'] = lr * mult[ind]
    return lr

def adaptation_factor(x):
    if x >= 1.0:
        return 1.0
    den = 1.0 + math.exp(-10 * x)
    lamb = 2.0 / den - 1.0
    return lamb

init_lr = 1e-2
batch_size = 6
max_epoch = 10000
lr_mult = [0.1, 0.2, 1, 2]
lr_mult_D = [1, 2]
n_class = 3
da = 1
# random stand-ins for the amazon (source) and webcam (target) Office loaders
s_batches = [(torch.randn(batch_size, 3, 16, 16), torch.randint(0, n_class, (batch_size,))) for _ in range(3)]
t_batches = [(torch.randn(batch_size, 3, 16, 16), torch.randint(0, n_class, (batch_size,))) for _ in range(3)]

model = AlexNet(cudable=cuda, n_class=n_class)
opt, opt_D = model.get_optimizer(init_lr, lr_mult, lr_mult_D)
epoch = 0
# %%
for epoch in range(epoch, 3):
    model.train()
    lamb = adaptation_factor(epoch * 1.0 / max_epoch)
    current_lr, _ = lr_schedule(opt, epoch, lr_mult), lr_schedule(opt_D, epoch, lr_mult_D)
    xs, ys = s_batches[epoch % len(s_batches)]
    xt, yt = t_batches[epoch % len(t_batches)]

    # forward
    s_feature, s_score, s_pred = model.forward(xs)
    t_feature, t_score, t_pred = model.forward(xt)
    C_loss = model.closs(s_score, ys)
    if da:
        s_logit, t_logit = model.forward_D(s_feature), model.forward_D(t_feature)

        G_loss, D_loss, semantic_loss = model.adloss(s_logit, t_logit, s_feature, t_feature, ys, t_pred)
        Dregloss, Gregloss = model.regloss()
        F_loss = C_loss + Gregloss + lamb * G_loss + lamb * semantic_loss
        D_loss = D_loss + Dregloss

        # both backward passes before the updates: opt_D.step() would otherwise change the D weights that F_loss
        # (through G_loss) still needs; inputs= keeps each loss's gradient to its own optimizer's parameters
        opt_D.zero_grad()
        D_loss.backward(retain_graph=True, inputs=[p for g in opt_D.param_groups for p in g['params']])
        opt.zero_grad()
        F_loss.backward(inputs=[p for g in opt.param_groups for p in g['params']])
        opt_D.step()
        opt.step()
    print('epoch: {}, lr: {}, C_loss: {}, semantic_loss: {}'.format(epoch, current_lr, C_loss.item(), semantic_loss.item()))
